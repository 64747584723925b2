export * from './grid';
export * from './money';
export * from './reportShapes';
export * from './statementGrid';
export * from './statementLines';
