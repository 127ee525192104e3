import { languageErrors } from '../errors';
import type { TenantformError } from '../errors';
import { isRecord } from '../plain-json';
import { parseInstanceAddress, type InstanceAddress } from '../state/addresses';

/** A `moved` block: the object recorded at `from` is recorded at `to` before anything is planned. */
export interface Move {
  readonly from: string;
  readonly to: string;
}

/** The blocks the configuration declares, and the instances of each. */
interface Declared {
  has(block: string): boolean;
  instances(block: string): readonly string[] | undefined;
}

/**
 * The `moved` blocks of Terraform JSON (a list of `{from, to}`, as cdktf's `moveTo` writes them),
 * checked as Terraform checks them: managed resources of one type, `from` no longer declared.
 */
export function parseMoves(raw: unknown, declared: Declared, problems: TenantformError[]): Move[] {
  if (raw === undefined) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  const moves: Move[] = [];
  list.forEach((block, i) => {
    const at = `moved[${i}]`;
    if (!isRecord(block)) return void problems.push(languageErrors.invalidMove(at, 'a moved block is an object with `from` and `to`'));
    const extra = Object.keys(block).filter((k) => k !== 'from' && k !== 'to' && k !== '//');
    if (extra.length > 0)
      return void problems.push(languageErrors.invalidMove(at, `a moved block takes only \`from\` and \`to\`, not ${extra.map((k) => `\`${k}\``).join(', ')}`));
    const from = address(block.from);
    const to = address(block.to);
    if (!from || !to)
      return void problems.push(
        languageErrors.invalidMove(at, '`from` and `to` are resource addresses, such as `tenantform_tenant.old` or `tenantform_tenant.all["acme"]`'),
      );
    if (from.mode !== 'managed' || to.mode !== 'managed')
      return void problems.push(languageErrors.invalidMove(at, 'only managed resources move; a data source is read again instead'));
    if (from.type !== to.type)
      return void problems.push(languageErrors.invalidMove(at, `an object keeps its resource type: ${from.type} cannot move to ${to.type}`));
    const fromText = String(block.from);
    const toText = String(block.to);
    if (fromText === toText) return void problems.push(languageErrors.invalidMove(at, '`from` and `to` name the same address'));
    if (stillDeclared(from, declared)) {
      return void problems.push(
        languageErrors.invalidMove(at, `${fromText} is still declared in the configuration: a move is from an address the configuration no longer has`),
      );
    }
    moves.push({ from: fromText, to: toText });
  });
  return moves;
}

function address(v: unknown): InstanceAddress | undefined {
  return typeof v === 'string' ? parseInstanceAddress(v) : undefined;
}

function stillDeclared(from: InstanceAddress, declared: Declared): boolean {
  if (from.key === undefined) return declared.has(from.block);
  const instances = declared.instances(from.block);
  return instances !== undefined && instances.some((a) => parseInstanceAddress(a)?.key === from.key);
}
