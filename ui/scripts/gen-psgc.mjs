// Regenerates crates/db/seed/psgc.tsv: the real PSGC geography of the areas the store serves,
// taken from the @aivangogh/ph-address package (a PSGC dataset on npm).
//
// Output, one record per line, tab-separated:
//   P <province id> <psgc code> <name>          (province ids are the store's own; 51 is Metro Manila)
//   C <city psgc code> <province id> <name>
//   B <barangay psgc code> <city psgc code> <name>
// City and barangay ids in the database are their PSGC codes.
//
// Run: npm run psgc   (from ui/)
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const psgc = require('@aivangogh/ph-address');

// Metro Manila is a region without provinces in PSGC; its cities hang off the region code.
const PROVINCES = [
  { id: 51, name: 'Metro Manila', code: '1300000000' },
  { id: 52, name: 'Bulacan', code: '0301400000' },
  { id: 53, name: 'Cavite', code: '0402100000' },
  { id: 54, name: 'Rizal', code: '0405800000' },
];

const clean = (s) => s.replace(/\s+/g, ' ').trim();
const lines = [];
for (const p of PROVINCES) {
  lines.push(['P', p.id, p.code, p.name].join('\t'));
  const cities = psgc.getMunicipalitiesByProvince(p.code);
  if (cities.length === 0) throw new Error(`no cities for ${p.name}`);
  for (const c of cities) {
    lines.push(['C', c.psgcCode, p.id, clean(c.name)].join('\t'));
    let brgys = [...psgc.getBarangaysByMunicipality(c.psgcCode)];
    if (brgys.length === 0) {
      // The City of Manila lists its barangays under its districts (Binondo, Tondo, ...).
      for (const d of psgc.getMunicipalitiesByProvince(c.psgcCode)) {
        brgys.push(...psgc.getBarangaysByMunicipality(d.psgcCode));
      }
    }
    if (brgys.length === 0) throw new Error(`no barangays for ${c.name}`);
    brgys.sort((a, b) => a.psgcCode.localeCompare(b.psgcCode));
    for (const b of brgys) lines.push(['B', b.psgcCode, c.psgcCode, clean(b.name)].join('\t'));
  }
}
const out = fileURLToPath(new URL('../../crates/db/seed/psgc.tsv', import.meta.url));
writeFileSync(out, lines.join('\n') + '\n');
console.log(`wrote ${lines.length} records to ${out}`);
