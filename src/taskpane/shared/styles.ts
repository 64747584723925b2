import { inputClassNames, makeStyles, selectClassNames, tokens } from '@fluentui/react-components';

/** Layout shared by the screens: a column of fields with even gaps. */
export const useScreenStyles = makeStyles({
  screen: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
    // A text box is 20 characters wide by default and a drop-down as wide as its longest option, and
    // neither shrinks below that: two side by side, or a long table name, ran past the pane's right edge
    // (issue 13). Sized by their field instead, they fit any pane width.
    [`& .${inputClassNames.input}`]: { width: '100%' },
    [`& .${selectClassNames.select}`]: { width: '100%', minWidth: 0 },
  },
  row: {
    display: 'flex',
    flexWrap: 'wrap',
    columnGap: tokens.spacingHorizontalS,
    rowGap: tokens.spacingVerticalS,
    alignItems: 'center',
  },
  /**
   * Two fields side by side when they fit, stacked when they do not (the task pane can be 320 px wide):
   * each field may shrink below its input's natural width (minWidth 0) down to a floor, then wraps.
   */
  twoColumns: {
    display: 'flex',
    flexWrap: 'wrap',
    columnGap: tokens.spacingHorizontalS,
    rowGap: tokens.spacingVerticalS,
    '& > *': {
      flex: '1 1 140px',
      minWidth: 0,
    },
  },
  disclosureHeading: {
    margin: 0,
    fontSize: tokens.fontSizeBase300,
  },
  disclosure: {
    paddingLeft: 0,
    fontWeight: tokens.fontWeightSemibold,
  },
  note: {
    color: tokens.colorNeutralForeground3,
  },
  visuallyHidden: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    margin: '-1px',
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
    border: 0,
    padding: 0,
  },
});
