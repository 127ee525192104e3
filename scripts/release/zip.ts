/**
 * A zip archive of files, as Terraform unpacks a provider package: deflated, each with its Unix
 * mode (the provider must stay executable), and the same bytes for the same files (a fixed
 * date), so that a release built twice has the same checksums.
 */
import { deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  readonly name: string;
  readonly data: Buffer;
  /** Unix permission bits, e.g. 0o755. */
  readonly mode: number;
}

const CRC_TABLE = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

export function crc32(data: Buffer): number {
  let c = -1;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** 1980-01-01 00:00, the earliest date a zip holds. */
const DOS_TIME = 0;
const DOS_DATE = (1 << 5) | 1;
/** Version 2.0 (deflate); made by Unix (3), so that the external attributes hold a Unix mode. */
const VERSION_NEEDED = 20;
const MADE_BY_UNIX = (3 << 8) | VERSION_NEEDED;
const UTF8_NAMES = 1 << 11;
const DEFLATE = 8;
const REGULAR_FILE = 0o100000;

/** The fields the local header (at 4) and the central directory's header (at 6) share, version needed to name length. */
function writeFileFields(header: Buffer, at: number, f: { crc: number; compressed: number; size: number; nameLength: number }): void {
  header.writeUInt16LE(VERSION_NEEDED, at);
  header.writeUInt16LE(UTF8_NAMES, at + 2);
  header.writeUInt16LE(DEFLATE, at + 4);
  header.writeUInt16LE(DOS_TIME, at + 6);
  header.writeUInt16LE(DOS_DATE, at + 8);
  header.writeUInt32LE(f.crc, at + 10);
  header.writeUInt32LE(f.compressed, at + 14);
  header.writeUInt32LE(f.size, at + 18);
  header.writeUInt16LE(f.nameLength, at + 22);
}

export function zip(entries: readonly ZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const compressed = deflateRawSync(entry.data);
    const fields = { crc: crc32(entry.data), compressed: compressed.length, size: entry.data.length, nameLength: name.length };
    // Then the extra field's length: none.
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeFileFields(local, 4, fields);
    // Then the lengths of the extra field and comment, the disk number, internal attributes: none.
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(MADE_BY_UNIX, 4);
    writeFileFields(header, 6, fields);
    header.writeUInt32LE(((REGULAR_FILE | entry.mode) << 16) >>> 0, 38);
    header.writeUInt32LE(offset, 42);
    parts.push(local, name, compressed);
    central.push(header, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}
