// The add-in's real custom functions registered as the build registers them: custom-functions-metadata
// reads the JSDoc tags of src/functions/functions.ts into functions.json (what Excel shows and registers),
// and CustomFunctions.associate ties each id to its function. Import src/workbench/customFunctionsStub
// before this module, so the CustomFunctions global exists when functions.ts is evaluated.
import path from 'node:path';
import * as functions from '../../src/functions/functions';
import { parseFunctionsJson, type FunctionInfo } from '../../src/workbench/customFunctions';

/** One parameter of functions.json, with the help text Excel shows for it. */
export interface FunctionsJsonParameter {
  name: string;
  description?: string;
  type?: string;
  optional?: boolean;
}

/** functions.json as custom-functions-metadata writes it (the parts the tests read). */
export interface FunctionsJson {
  functions: { id: string; name: string; description?: string; parameters: FunctionsJsonParameter[] }[];
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { generateCustomFunctionsMetadata } = require('custom-functions-metadata') as {
  generateCustomFunctionsMetadata(input: string[], wantAssociate: boolean): Promise<{ metadataJson: string; associate: { id: string; functionName: string }[] }>;
};

export const FUNCTIONS_FILE = path.resolve(__dirname, '../../src/functions/functions.ts');

/** What the build does: functions.json from the JSDoc tags, and CustomFunctions.associate for each id. */
export async function registerFinFunctions(): Promise<{ json: FunctionsJson; info: Map<string, FunctionInfo> }> {
  const result = await generateCustomFunctionsMetadata([FUNCTIONS_FILE], true);
  const exported = functions as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const { id, functionName } of result.associate) CustomFunctions.associate(id, exported[functionName]);
  const json = JSON.parse(result.metadataJson) as FunctionsJson;
  return { json, info: parseFunctionsJson(json) };
}
