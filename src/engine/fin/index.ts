export * from './args';
export * from './errors';
export * from './lines';
export * from './resolve';
export * from './service';
