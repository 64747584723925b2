// The custom functions' metadata, generated the way the build generates functions.json
// (custom-functions-metadata-plugin calls custom-functions-metadata on src/functions/functions.ts).
import path from 'node:path';

interface MetadataResult {
  metadataJson: string;
  associate: { id: string; functionName: string }[];
  errors: string[];
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { generateCustomFunctionsMetadata } = require('custom-functions-metadata') as {
  generateCustomFunctionsMetadata(input: string[], wantAssociate: boolean): Promise<MetadataResult>;
};

const functionsFile = path.resolve(__dirname, '..', '..', 'src', 'functions', 'functions.ts');

test('functions.ts yields valid metadata with FIN.VERSION', async () => {
  const result = await generateCustomFunctionsMetadata([functionsFile], true);
  expect(result.errors).toEqual([]);
  const metadata = JSON.parse(result.metadataJson) as { functions: { id: string; name: string; result: { type: string } }[] };
  const version = metadata.functions.find((f) => f.id === 'VERSION');
  expect(version).toMatchObject({ name: 'VERSION', result: { type: 'string' } });
  expect(result.associate).toContainEqual(expect.objectContaining({ id: 'VERSION', functionName: 'version' }));
});

test('FIN.VERSION returns a version string', async () => {
  const { version } = await import('../../src/functions/functions');
  // Outside the webpack bundle __ADDIN_VERSION__ is not defined.
  expect(version()).toBe('dev');
});
