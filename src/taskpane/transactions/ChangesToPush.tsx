import { Text } from '@fluentui/react-components';
import type { ReviewPlan } from '../../engine/transactions';
import { useScreenStyles } from '../shared/styles';
import { groupLine, groupsToSend, rowsHeld, rowsLost, rowsNotSent } from './messages';

/** What Review changes found: the groups a push would send, the rows it would not, and what it costs. */
export function ChangesToPush({ plan }: { plan: ReviewPlan }) {
  const styles = useScreenStyles();
  return (
    <section aria-label="Changes to push">
      <Text weight="semibold">{groupsToSend(plan)}</Text>
      <ul>
        {plan.groups.map((g) => (
          <li key={JSON.stringify(g.update)}>{groupLine(g)}</li>
        ))}
      </ul>
      {plan.invalid.length > 0 && <Text className={styles.note}>{rowsNotSent(plan.invalid.length)} </Text>}
      {plan.held.length > 0 && <Text className={styles.note}>{rowsHeld(plan.held.length)} </Text>}
      {plan.lost.length > 0 && <Text className={styles.note}>{rowsLost(plan.lost)} </Text>}
      <Text>{plan.cost.text}</Text>
    </section>
  );
}
