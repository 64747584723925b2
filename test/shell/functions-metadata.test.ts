// The custom functions' metadata, generated the way the build generates functions.json
// (custom-functions-metadata-plugin calls custom-functions-metadata on src/functions/functions.ts).
import fs from 'node:fs';
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

test("Refresh all's count of FIN evaluations knows exactly the functions that run one (EVALUATED_FUNCTIONS)", async () => {
  const { EVALUATED_FUNCTIONS } = await import('../../src/engine/fin');
  const source = fs.readFileSync(functionsFile, 'utf8');
  const result = await generateCustomFunctionsMetadata([functionsFile], true);
  const evaluating = result.associate
    .filter(({ functionName }) => {
      const start = source.indexOf(`export function ${functionName}(`);
      const body = source.slice(start, source.indexOf('\n}\n', start));
      return start >= 0 && /\bevaluate\(/.test(body);
    })
    .map(({ id }) => id);
  expect(evaluating.length).toBeGreaterThan(5);
  expect([...EVALUATED_FUNCTIONS].sort()).toEqual(evaluating.sort());
});
