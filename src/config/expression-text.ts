import { SensitiveValue, SetValue, UNKNOWN, type Value } from '../expressions';

/**
 * A known value written as an expression of the language, which evaluates back to it: strings
 * quoted with their interpolation marks escaped, sets through `toset`, sensitive values through
 * `sensitive`. Undefined when any part of it is not known yet.
 */
export function expressionText(value: Value): string | undefined {
  if (value === null) return 'null';
  if (value === UNKNOWN) return undefined;
  if (typeof value === 'string') return JSON.stringify(value).replace(/([$%])\{/g, '$1$1{');
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof SensitiveValue) return wrapped('sensitive', expressionText(value.value));
  if (value instanceof SetValue) return wrapped('toset', listText(value.elements));
  if (Array.isArray(value)) return listText(value as readonly Value[]);
  const items: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    const text = expressionText(item);
    if (text === undefined) return undefined;
    items.push(`${JSON.stringify(key).replace(/([$%])\{/g, '$1$1{')}: ${text}`);
  }
  return `{${items.join(', ')}}`;
}

function listText(items: readonly Value[]): string | undefined {
  const texts: string[] = [];
  for (const item of items) {
    const text = expressionText(item);
    if (text === undefined) return undefined;
    texts.push(text);
  }
  return `[${texts.join(', ')}]`;
}

const wrapped = (fn: string, inner: string | undefined): string | undefined => (inner === undefined ? undefined : `${fn}(${inner})`);
