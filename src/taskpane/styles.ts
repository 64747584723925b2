import { makeStyles, tokens } from '@fluentui/react-components';

/** Layout shared by the screens: a column of fields with even gaps. */
export const useScreenStyles = makeStyles({
  screen: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
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
  /** A small status tag (Fluent's tint badge look, without the Badge component). */
  tag: {
    display: 'inline-block',
    padding: `0 ${tokens.spacingHorizontalXS}`,
    borderRadius: tokens.borderRadiusMedium,
    fontSize: tokens.fontSizeBase200,
    fontWeight: tokens.fontWeightSemibold,
  },
  tagWarning: {
    backgroundColor: tokens.colorPaletteYellowBackground1,
    color: tokens.colorPaletteDarkOrangeForeground2,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorPaletteYellowBorder1}`,
  },
  tagSuccess: {
    backgroundColor: tokens.colorPaletteGreenBackground1,
    color: tokens.colorPaletteGreenForeground2,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorPaletteGreenBorder1}`,
  },
  tagNeutral: {
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground2,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
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
