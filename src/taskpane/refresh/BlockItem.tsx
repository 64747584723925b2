// The Refresh tab's list of blocks, and one block of it: which statement, where it is now, when it was refreshed and whether
// anything is known to have changed since (the add-in's own pushes and shifts are), is closed, or is damaged
// (then only Forget).

import { Badge, Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { Ref } from 'react';
import type { BindingRecord } from '../../engine/ports/workbook';
import type { WorkbookPlan } from '../../engine/refresh/plan';
import type { RefreshBlock } from '../../engine/statements';
import { describeSpec, failureOf, formatAge, isOld, plural } from '../../runtime/screenKit';
import { useScreenStyles } from '../shared/styles';

const useRefreshStyles = makeStyles({
  blocks: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
  },
  failure: {
    color: tokens.colorPaletteRedForeground1,
  },
});

export interface BlockItemProps extends BlockActions {
  block: RefreshBlock;
}

/** What each block of the list offers, and when. */
export interface BlockActions {
  now: number;
  closedThrough: string | null;
  /** Refresh this block is offered but not now (a refresh is running or asked). */
  askDisabled: boolean;
  forgetDisabled: boolean;
  onAsk: (block: RefreshBlock, opener: HTMLElement) => void;
  onForget: (binding: BindingRecord) => void;
}

/** The block's state as a badge: damaged, failed, changed, closed, or how old. */
function StateBadge({ block, now, damaged, failed, changed, closed }: { block: RefreshBlock; now: number; damaged: boolean; failed: boolean; changed: boolean; closed: boolean }) {
  const old = isOld(block.binding, now);
  if (damaged) {
    return (
      <Badge appearance="tint" shape="rounded" color="danger">
        Damaged
      </Badge>
    );
  }
  if (failed) {
    return (
      <Badge appearance="tint" shape="rounded" color="danger">
        Refresh failed
      </Badge>
    );
  }
  if (changed) {
    return (
      <Badge appearance="tint" shape="rounded" color="warning">
        {block.rolled ? 'Behind the reporting period' : block.budgetChanged ? 'Budget edited' : 'Changed by your push'}
      </Badge>
    );
  }
  if (closed) {
    return (
      <Badge appearance="tint" shape="rounded" color="informative">
        Closed
      </Badge>
    );
  }
  return (
    <Badge appearance="tint" shape="rounded" color={old ? 'informative' : 'success'}>
      {old ? 'Over a day old' : 'Current'}
    </Badge>
  );
}

/** What is known of the block since it was written (nothing said of a damaged or failed one). */
function changeNote(block: RefreshBlock, changed: boolean, closed: boolean, closedThrough: string | null): string {
  const what = changed
    ? `${
        block.rolled
          ? `Behind the reporting period: its next refresh rolls it to ${block.spec.start} to ${block.spec.end}`
          : block.budgetChanged
            ? `Its budget ${block.spec.budget ?? ''} was edited since it was written: refresh`
            : 'Changed by your push: refresh'
      } (${plural(block.changedCalls, 'call')}).`
    : closed
      ? `Within the books closed through ${closedThrough}: kept by every refresh. Refresh this block reopens it.`
      : 'Nothing known to have changed since it was written: your pushes and shifts are tracked here; changes made elsewhere show after Refresh changes.';
  return what + (!closed && block.frozen > 0 ? ` ${block.frozen} of its ${plural(block.keys.length, 'report')} are within the closed books and kept.` : '');
}

export function BlockItem({ block, now, closedThrough, askDisabled, forgetDisabled, onAsk, onForget }: BlockItemProps) {
  const styles = useScreenStyles();
  const refreshStyles = useRefreshStyles();
  const at = Date.parse(block.binding.refreshedAt);
  const changed = block.changed.length > 0;
  const closed = block.frozen > 0 && block.frozen === block.keys.length;
  const failure = failureOf(block.binding);
  const { placement } = block;
  const damaged = placement.kind === 'damaged';
  const titleId = `block-${block.binding.id}`;
  return (
    <li aria-labelledby={titleId}>
      <Text id={titleId} weight="semibold" block>
        {describeSpec(block.spec)}
      </Text>
      <Text block className={styles.note}>
        {damaged ? block.binding.address : placement.address}
      </Text>
      {placement.kind === 'damaged' && (
        <Text block className={refreshStyles.failure}>
          {placement.refusal.message}
        </Text>
      )}
      {placement.kind === 'recorded' && (
        <Text block className={styles.note}>
          Found at the address an earlier version recorded, so rows inserted above it since then are not followed. Its next refresh
          gives it a name that moves with its cells.
        </Text>
      )}
      {!damaged && failure && (
        <Text block className={refreshStyles.failure}>
          Refresh failed {formatAge(Date.parse(failure.at), now)}: {failure.message}. Its figures are from its last good refresh.
        </Text>
      )}
      <Text block>
        Refreshed {formatAge(at, now)} <StateBadge block={block} now={now} damaged={damaged} failed={!!failure} changed={changed} closed={closed} />
      </Text>
      {!failure && !damaged && (
        <Text block className={styles.note}>
          {changeNote(block, changed, closed, closedThrough)}
        </Text>
      )}
      <div className={styles.row}>
        {!damaged && (
          <Button size="small" aria-describedby={titleId} onClick={(e) => onAsk(block, e.currentTarget)} disabledFocusable={askDisabled}>
            Refresh this block
          </Button>
        )}
        <Button size="small" appearance="subtle" aria-describedby={titleId} onClick={() => onForget(block.binding)} disabledFocusable={forgetDisabled}>
          Forget
        </Button>
      </div>
    </li>
  );
}

/** The blocks the pane wrote, each a BlockItem, and the transactions tables refreshed with them. */
export function BlocksList({ plan, headingRef, ...actions }: BlockActions & { plan: WorkbookPlan | null; headingRef: Ref<HTMLHeadingElement> }) {
  const styles = useScreenStyles();
  const refreshStyles = useRefreshStyles();
  return (
    <>
      <h3 ref={headingRef} tabIndex={-1}>
        Blocks in this workbook
      </h3>
      {plan && plan.blocks.blocks.length === 0 && <Text>No statements inserted yet. Insert one from the Reports tab.</Text>}
      {plan && plan.blocks.blocks.length > 0 && (
        <ul aria-label="Blocks" className={refreshStyles.blocks}>
          {plan.blocks.blocks.map((block) => (
            <BlockItem key={block.binding.id} block={block} {...actions} />
          ))}
        </ul>
      )}
      {plan && plan.tables > 0 && (
        <Text className={styles.note}>
          {plural(plan.tables, 'transactions table')} of this company {plan.tables === 1 ? 'is' : 'are'} refreshed with the rest (a changes refresh leaves a table alone when none of the changes is in it).
        </Text>
      )}
    </>
  );
}
