/**
 * `npm run zip`: packs dist/ into layout-cost-<version>.zip for the Chrome Web
 * Store and dist-firefox/ into layout-cost-<version>-firefox.zip for Firefox
 * Add-ons (or for sharing). A minimal zip writer on Node built-ins (deflate-raw +
 * CRC-32) rather than a dependency: the format needs only a local header per
 * file, a central directory and an end record.
 *
 * Entries are sorted and stamped with one fixed date, so the same dist/
 * always yields a byte-identical zip (reproducible builds, diffable releases).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ROOT } from './chrome';

/** 1980-01-01 00:00, the earliest MS-DOS date: the fixed timestamp of every entry. */
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const DOS_TIME = 0;
const METHOD_STORE = 0;
const METHOD_DEFLATE = 8;
/** General-purpose flag bit 11: file names are UTF-8. */
const FLAG_UTF8 = 0x0800;
const VERSION_NEEDED = 20;

interface Entry {
  name: string;
  data: Buffer;
}

function listFiles(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => {
      const full = path.join(dir, d.name);
      return d.isDirectory() ? listFiles(full, base) : d.isFile() ? [path.relative(base, full)] : [];
    })
    .sort();
}

/** Returns the archive bytes; exported so a test can round-trip it. */
export function createZip(entries: Entry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name.split(path.sep).join('/'), 'utf8');
    const deflated = zlib.deflateRawSync(data, { level: 9 });
    // Already-compressed files (PNG) can grow under deflate; store those as they are.
    const useDeflate = deflated.length < data.length;
    const body = useDeflate ? deflated : data;
    const crc = zlib.crc32(data) >>> 0;

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION_NEEDED, 4);
    local.writeUInt16LE(FLAG_UTF8, 6);
    local.writeUInt16LE(useDeflate ? METHOD_DEFLATE : METHOD_STORE, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    parts.push(local, nameBytes, body);

    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE((3 << 8) | VERSION_NEEDED, 4); // made by: Unix, so the mode below is honoured
    dir.writeUInt16LE(VERSION_NEEDED, 6);
    dir.writeUInt16LE(FLAG_UTF8, 8);
    dir.writeUInt16LE(useDeflate ? METHOD_DEFLATE : METHOD_STORE, 10);
    dir.writeUInt16LE(DOS_TIME, 12);
    dir.writeUInt16LE(DOS_DATE, 14);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(body.length, 20);
    dir.writeUInt32LE(data.length, 24);
    dir.writeUInt16LE(nameBytes.length, 28);
    // extra length, comment length, disk number start, internal attributes: all 0
    dir.writeUInt32LE((0o100644 << 16) >>> 0, 38); // external attributes: a regular file, rw-r--r--
    dir.writeUInt32LE(offset, 42);
    central.push(dir, nameBytes);

    offset += local.length + nameBytes.length + body.length;
  }
  const centralBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  // The classic format tops out at 65 535 entries and 4 GiB; an extension is nowhere near either.
  if (entries.length > 0xffff || offset > 0xffffffff) throw new Error('zip: too large for a non-ZIP64 archive');
  return Buffer.concat([...parts, centralBytes, end]);
}

/** One package per browser: dist/ for Chrome, dist-firefox/ for Firefox (AMO takes the same zip as an .xpi). */
const TARGETS: [string, string][] = [['dist', ''], ['dist-firefox', '-firefox']];

function main(): void {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  for (const [dir, suffix] of TARGETS) {
    const from = path.join(ROOT, dir);
    const manifest = path.join(from, 'manifest.json');
    if (!fs.existsSync(manifest)) {
      console.error(`[layout-cost] ${dir}/manifest.json is missing: run \`npm run build\` first.`);
      process.exit(1);
    }
    const stamped = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version?: string }).version;
    if (stamped !== version) console.warn(`[layout-cost] warning: ${dir}/ was built as ${stamped}, package.json says ${version}; rebuild?`);
    // Source maps (from build:dev) are for local debugging, not for the store package.
    const files = listFiles(from).filter((f) => !f.endsWith('.map'));
    const zip = createZip(files.map((name) => ({ name, data: fs.readFileSync(path.join(from, name)) })));
    const out = path.join(ROOT, `layout-cost-${version}${suffix}.zip`);
    fs.writeFileSync(out, zip);
    console.log(`[layout-cost] wrote ${path.relative(process.cwd(), out)} (${files.length} files, ${(zip.length / 1024).toFixed(1)} KiB)`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
