import type { BinaryOperator } from './ast';
import { asBool, asNumber, describe } from './convert';
import { fail, type SourceRange } from './problems';
import { isKnown, UNKNOWN, valuesEqual, type Value } from './values';

/** Applies an operator to values that carry no sensitive mark. */
export function applyBinary(op: BinaryOperator, left: Value, right: Value, range: SourceRange): Value {
  if (op === '==' || op === '!=') {
    if (!isKnown(left) || !isKnown(right)) return UNKNOWN;
    return valuesEqual(left, right) === (op === '==');
  }
  if (op === '&&' || op === '||') {
    const a = operand(left, op, range, asBool, 'bool');
    const b = operand(right, op, range, asBool, 'bool');
    // A known side decides alone when it settles the result, as Terraform short-circuits.
    if (op === '&&' && (a === false || b === false)) return false;
    if (op === '||' && (a === true || b === true)) return true;
    if (a === UNKNOWN || b === UNKNOWN) return UNKNOWN;
    return op === '&&' ? a && b : a || b;
  }
  const a = operand(left, op, range, asNumber, 'number');
  const b = operand(right, op, range, asNumber, 'number');
  if (a === UNKNOWN || b === UNKNOWN) return UNKNOWN;
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      if (b === 0 && a === 0) fail('invalid_operation', op, range, 'Cannot divide zero by zero.');
      return a / b;
    case '%':
      // Terraform leaves the dividend as it is when the divisor is zero.
      return b === 0 ? a : a % b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

export function applyUnary(op: '!' | '-', value: Value, range: SourceRange): Value {
  if (op === '!') {
    const v = operand(value, op, range, asBool, 'bool');
    return v === UNKNOWN ? UNKNOWN : !v;
  }
  const n = operand(value, op, range, asNumber, 'number');
  return n === UNKNOWN ? UNKNOWN : -n;
}

function operand<T>(v: Value, op: string, range: SourceRange, convert: (v: Value) => T | undefined, wanted: string): T | typeof UNKNOWN {
  if (v === UNKNOWN) return UNKNOWN;
  if (v === null) fail('invalid_operation', op, range, `Unsuitable value for the "${op}" operator: a ${wanted} is required, not null.`);
  const converted = convert(v);
  if (converted === undefined) fail('invalid_operation', op, range, `Unsuitable value for the "${op}" operator: a ${wanted} is required, not ${describe(v)}.`);
  return converted;
}
