import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluate, fromPlain, parseExpression, parseTemplate, roundToDecimalPrecision, toJson, type EvalContext, type Value } from '../../src/expressions';
import { requireTerraform } from '../provider/helpers';

/**
 * The expression corpus evaluated twice: by tenantform's evaluator and by the real
 * `terraform console` (one process for the whole corpus), compared value by value through
 * `jsonencode`, so numbers, strings, types and set order must match exactly.
 */

const ERROR = '!error';
/** Marks a corpus line whose exact result has more significant digits than a double holds. */
const NEAR = '~ ';
const corpus = readFileSync(join(__dirname, 'corpus.txt'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));
const expressionOf = (line: string) => (line.startsWith(NEAR) ? line.slice(NEAR.length) : line);
const inputsText = readFileSync(join(__dirname, 'inputs.tf.json'), 'utf8');

/** The locals of inputs.tf.json, each string evaluated as a configuration template in order. */
function localsContext(): EvalContext {
  const declared = (JSON.parse(inputsText) as { locals: Record<string, unknown> }).locals;
  const local: Record<string, Value> = {};
  const context: EvalContext = { variables: { local } };
  for (const [name, raw] of Object.entries(declared)) {
    if (typeof raw !== 'string') {
      local[name] = fromPlain(raw);
      continue;
    }
    const parsed = parseTemplate(raw);
    if ('problem' in parsed) throw new Error(`local.${name}: ${parsed.problem.message}`);
    const result = evaluate(parsed.expr, context);
    if ('problem' in result) throw new Error(`local.${name}: ${result.problem.message}`);
    local[name] = result.value;
  }
  return context;
}

function ours(expression: string, context: EvalContext): string {
  const parsed = parseExpression(expressionOf(expression));
  if ('problem' in parsed) return `${ERROR} ${parsed.problem.message}`;
  const result = evaluate(parsed.expr, context);
  if ('problem' in result) return `${ERROR} ${result.problem.message}`;
  try {
    return toJson(result.value);
  } catch (e) {
    return `${ERROR} ${(e as Error).message}`;
  }
}

/** Runs terraform console once: every expression's jsonencode (or the error marker) in one line of base64. */
function terraformResults(): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'tf-console-'));
  try {
    writeFileSync(join(dir, 'inputs.tf.json'), inputsText);
    writeFileSync(join(dir, 'cli.tfrc'), '');
    const items = corpus.map((e) => `try(jsonencode(${expressionOf(e)}), "${ERROR}")`);
    const input = `base64encode(jsonencode([${items.join(', ')}]))\n`;
    const run = spawnSync('terraform', ['console', '-no-color'], {
      cwd: dir,
      input,
      encoding: 'utf8',
      env: { ...process.env, TF_CLI_CONFIG_FILE: join(dir, 'cli.tfrc'), TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', TF_LOG: '' },
    });
    const printed = /"([A-Za-z0-9+/=]+)"/.exec(run.stdout);
    if (run.status !== 0 || !printed) throw new Error(`terraform console failed (${run.status}): ${run.stdout}\n${run.stderr}`);
    return JSON.parse(Buffer.from(printed[1], 'base64').toString('utf8')) as string[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the expression corpus against terraform console', () => {
  const context = localsContext();
  let expected: string[] = [];
  beforeAll(() => {
    // Without terraform the corpus proves nothing: fail with the reason rather than skip.
    requireTerraform();
    expected = terraformResults();
  });

  it('covers a broad corpus', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(150);
    expect(expected).toHaveLength(corpus.length);
  });

  it.each(corpus.map((e, i) => [e, i] as const))('%s', (expression, i) => {
    const actual = ours(expression, context);
    if (expected[i] === ERROR) expect(actual.startsWith(ERROR) ? ERROR : actual).toBe(ERROR);
    else if (expression.startsWith(NEAR)) {
      // Terraform's 512-bit result has more digits than a double: the first 15 must agree.
      expect(typeof JSON.parse(expected[i])).toBe('number');
      expect(Number(actual)).toBe(roundToDecimalPrecision(Number(expected[i])));
    } else expect(actual).toBe(expected[i]);
  });
});
