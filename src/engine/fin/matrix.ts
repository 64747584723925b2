// What a FIN function hands back to a cell or a spill range.

export type CellValue = string | number | boolean;
export type Matrix = CellValue[][];
