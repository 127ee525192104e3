import { languageErrors } from './language-errors';
import type { TenantformError } from '../errors';
import { isRecord } from '../plain-json';
import { isModulePath, parseInstanceAddress, type InstanceAddress } from '../state/addresses';

/**
 * A `moved` block: the object recorded at `from` is recorded at `to` before anything is planned;
 * for a module (`module.old` to `module.new`), every object recorded inside it.
 */
export interface Move {
  readonly from: string;
  readonly to: string;
}

/** A module path, with `${...}` taken off; undefined for anything else. */
function moduleOf(v: unknown): string | undefined {
  const text = typeof v === 'string' ? v.replace(/^\$\{(.*)\}$/s, '$1').trim() : undefined;
  return text !== undefined && isModulePath(text) ? text : undefined;
}

/** Whether an address lies inside a module instance, or inside any instance of a call without key. */
export function isWithinModule(address: string, module: string): boolean {
  return address.startsWith(`${module}.`) || (!module.endsWith(']') && address.startsWith(`${module}[`));
}

/** The blocks the configuration declares, and the instances of each. */
export interface Declared {
  has(block: string): boolean;
  instances(block: string): readonly string[] | undefined;
  /** Whether any block is declared inside the module (a call, or one of its instances). */
  within(module: string): boolean;
}

/**
 * The `moved` blocks of Terraform JSON (a list of `{from, to}`, as cdktf's `moveTo` writes them),
 * checked as Terraform checks them: managed resources of one type, `from` no longer declared.
 */
export function parseMoves(raw: unknown, declared: Declared, problems: TenantformError[]): Move[] {
  const moves: Move[] = [];
  const blockOf = new Map<Move, string>();
  eachBlock(
    raw,
    'moved',
    ['from', 'to'],
    (at, why) => problems.push(languageErrors.invalidMove(at, why)),
    (block, at, refuse) => {
      const move = moveOf(block, declared, (why) => {
        refuse(why);
        return undefined;
      });
      if (!move) return;
      moves.push(move);
      blockOf.set(move, at);
    },
  );
  // As Terraform: two moves to one address are ambiguous, and a chain of moves never comes back where it started.
  const into = new Map<string, Move>();
  for (const move of moves) {
    const earlier = into.get(move.to);
    if (earlier)
      problems.push(
        languageErrors.invalidMove(
          blockOf.get(move)!,
          `${earlier.from} and ${move.from} both move to ${move.to}: which object it is meant to hold is ambiguous`,
        ),
      );
    else into.set(move.to, move);
  }
  const next = new Map(moves.map((m) => [m.from, m.to]));
  for (const move of moves) {
    const seen = new Set([move.from]);
    for (let at = next.get(move.from); at !== undefined; at = next.get(at)) {
      if (at === move.from) {
        problems.push(
          languageErrors.invalidMove(
            blockOf.get(move)!,
            `the moves starting at ${move.from} come back to it: a cycle of moves says nowhere for the object to be`,
          ),
        );
        break;
      }
      if (seen.has(at)) break;
      seen.add(at);
    }
  }
  return moves;
}

/** The move one block says, once checked; undefined when it is refused. */
function moveOf(block: Record<string, unknown>, declared: Declared, refuse: (why: string) => undefined): Move | undefined {
  const [fromModule, toModule] = [moduleOf(block.from), moduleOf(block.to)];
  if (fromModule !== undefined || toModule !== undefined) {
    if (fromModule === undefined || toModule === undefined)
      return refuse('a module moves to a module: both `from` and `to` are module calls, such as `module.old` and `module.new`');
    if (fromModule === toModule) return refuse('`from` and `to` name the same module');
    if (declared.within(fromModule))
      return refuse(`${fromModule} is still declared in the configuration: a move is from a module the configuration no longer calls`);
    return { from: fromModule, to: toModule };
  }
  const from = address(block.from);
  const to = address(block.to);
  if (!from || !to) return refuse('`from` and `to` are resource addresses, such as `tenantform_tenant.old` or `tenantform_tenant.all["acme"]`');
  if (from.mode !== 'managed' || to.mode !== 'managed') return refuse('only managed resources move; a data source is read again instead');
  if (from.type !== to.type) return refuse(`an object keeps its resource type: ${from.type} cannot move to ${to.type}`);
  const fromText = String(block.from);
  const toText = String(block.to);
  if (fromText === toText) return refuse('`from` and `to` name the same address');
  if (stillDeclared(from, declared))
    return refuse(`${fromText} is still declared in the configuration: a move is from an address the configuration no longer has`);
  return { from: fromText, to: toText };
}

function address(v: unknown): InstanceAddress | undefined {
  return typeof v === 'string' ? parseInstanceAddress(v) : undefined;
}

function stillDeclared(from: InstanceAddress, declared: Declared): boolean {
  if (from.key === undefined) return declared.has(from.block);
  const instances = declared.instances(from.block);
  return instances !== undefined && instances.some((a) => parseInstanceAddress(a)?.key === from.key);
}

/** A `removed` block: the recorded objects of `from` leave the state; destroyed unless `destroy = false`. */
export interface Removal {
  readonly from: string;
  readonly destroy: boolean;
}

/**
 * The `removed` blocks (Terraform 1.7): `from` a resource the configuration no longer declares,
 * with `lifecycle { destroy = false }` to stop managing its objects without deleting them.
 */
export function parseRemovals(raw: unknown, declared: Declared, problems: TenantformError[]): Removal[] {
  const removals: Removal[] = [];
  eachBlock(
    raw,
    'removed',
    ['from', 'lifecycle'],
    (at, why) => problems.push(languageErrors.invalidRemoval(at, why)),
    (block, _at, refuse) => {
      const from = address(block.from);
      if (!from || from.key !== undefined) return refuse('`from` is a resource address without an instance key, such as `tenantform_tenant.old`');
      if (from.mode !== 'managed') return refuse('only managed resources are removed; a data source is simply no longer read');
      const lifecycle: unknown = block.lifecycle ?? {};
      const lifecycleBlock = Array.isArray(lifecycle) ? lifecycle[0] : lifecycle;
      if (!isRecord(lifecycleBlock) || Object.keys(lifecycleBlock).some((k) => k !== 'destroy' && k !== '//'))
        return refuse('`lifecycle` takes only `destroy` (true or false)');
      const destroy = lifecycleBlock.destroy ?? true;
      if (typeof destroy !== 'boolean') return refuse('`lifecycle.destroy` is true or false');
      if (declared.has(from.block))
        return refuse(`${from.block} is still declared in the configuration: remove the resource, then say what becomes of its objects`);
      removals.push({ from: from.block, destroy });
    },
  );
  return removals;
}

/**
 * Visits the blocks of a top-level list (`moved`, `removed`; one object alone is taken as a list
 * of one), each an object taking only `allowed` arguments; a block that is not is refused.
 */
export function eachBlock(
  raw: unknown,
  name: string,
  allowed: readonly string[],
  refuseAt: (at: string, why: string) => void,
  visit: (block: Record<string, unknown>, at: string, refuse: (why: string) => void) => void,
): void {
  if (raw === undefined) return;
  const list = Array.isArray(raw) ? raw : [raw];
  const quoted = allowed.map((k) => `\`${k}\``);
  const takes = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}` : quoted.join('');
  const article = /^[aeiou]/.test(name) ? 'an' : 'a';
  list.forEach((block, i) => {
    const at = `${name}[${i}]`;
    const refuse = (why: string) => refuseAt(at, why);
    if (!isRecord(block)) return refuse(`${article} ${name} block is an object with ${takes}`);
    const extra = Object.keys(block).filter((k) => !allowed.includes(k) && k !== '//');
    if (extra.length > 0) return refuse(`${article} ${name} block takes only ${takes}, not ${extra.map((k) => `\`${k}\``).join(', ')}`);
    visit(block, at, refuse);
  });
}
