import { FluentProvider, Text, Title2, makeStyles, tokens, type Theme } from '@fluentui/react-components';

// Placeholder pane: the real one (connect, insert statements and tables, push edits) is its own issue.

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalL,
    minHeight: '100vh',
    boxSizing: 'border-box',
  },
});

export const PRODUCT_NAME = 'Financial Reporting';

export interface AppProps {
  theme: Theme;
}

export function App({ theme }: AppProps) {
  const styles = useStyles();
  return (
    <FluentProvider theme={theme}>
      <main className={styles.root}>
        <Title2 as="h1">{PRODUCT_NAME}</Title2>
        <Text>Connect: link this workbook to your company&apos;s financial data. (Coming soon.)</Text>
      </main>
    </FluentProvider>
  );
}
