/**
 * Settings and bindings in the workbook, through Excel's SettingCollection (ExcelApi 1.4): it batches with the
 * other work in Excel.run and persists with the file without Office.context.document.settings.saveAsync.
 * Values are stored as JSON strings so the host never reinterprets them (dates, nested objects).
 */
import type { BindingRecord, Json } from '../../engine/ports/workbook';

const SETTING_PREFIX = 'fin.setting.';
const BINDING_PREFIX = 'fin.binding.';

function parse(raw: unknown): Json | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    return JSON.parse(raw) as Json;
  } catch {
    return undefined;
  }
}

export async function readSetting(ctx: Excel.RequestContext, key: string): Promise<Json | undefined> {
  const item = ctx.workbook.settings.getItemOrNullObject(SETTING_PREFIX + key).load('value');
  await ctx.sync();
  return item.isNullObject ? undefined : parse(item.value);
}

export async function writeSetting(ctx: Excel.RequestContext, key: string, value: Json): Promise<void> {
  ctx.workbook.settings.add(SETTING_PREFIX + key, JSON.stringify(value));
  await ctx.sync();
}

/**
 * Deletes a setting that may not exist. Microsoft documents nothing for a method called on a null object, so
 * the object is checked first: a second round trip only when there is something to delete.
 */
async function removeItem(context: Excel.RequestContext, key: string): Promise<void> {
  const item = context.workbook.settings.getItemOrNullObject(key);
  await context.sync();
  if (item.isNullObject) return;
  item.delete();
  await context.sync();
}

export function removeSetting(ctx: Excel.RequestContext, key: string): Promise<void> {
  return removeItem(ctx, SETTING_PREFIX + key);
}

function isBinding(v: Json | undefined): v is Json & BindingRecord {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return typeof o.id === 'string' && typeof o.kind === 'string' && typeof o.address === 'string';
}

export async function listBindings(ctx: Excel.RequestContext): Promise<BindingRecord[]> {
  const items = ctx.workbook.settings.load('items/key, items/value');
  await ctx.sync();
  const out: BindingRecord[] = [];
  for (const item of items.items) {
    if (!item.key.startsWith(BINDING_PREFIX)) continue;
    const value = parse(item.value);
    // A record damaged by hand is skipped, not fatal: Refresh all should rebuild the rest.
    if (isBinding(value)) out.push(value);
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

export async function saveBinding(ctx: Excel.RequestContext, binding: BindingRecord): Promise<void> {
  ctx.workbook.settings.add(BINDING_PREFIX + binding.id, JSON.stringify(binding));
  await ctx.sync();
}

export function removeBinding(ctx: Excel.RequestContext, id: string): Promise<void> {
  return removeItem(ctx, BINDING_PREFIX + id);
}
