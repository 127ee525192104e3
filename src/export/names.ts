/**
 * Resource names for exported objects: readable snake_case made from tenant and object
 * names, unique within one file (cdktf construct ids share one scope per stack).
 */

/** `Acme Manufacturing GmbH` -> `acme_manufacturing_gmbh`; accents dropped, never empty. */
export function slug(text: string): string {
  const ascii = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const s = ascii
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (s === '') return 'unnamed';
  // Terraform names start with a letter or an underscore.
  return /^[0-9]/.test(s) ? `n_${s}` : s;
}

/**
 * Joins a tenant's name and an object's name parts into one snake_case name, without
 * stutter: `Northwind Partner` + `backup`, `backup_window` -> `northwind_partner_backup_window`,
 * and an object name that already starts like the tenant's stands alone
 * (`Northwind DR site` -> `northwind_dr_site`).
 */
export function resourceName(tenantName: string, ...parts: string[]): string {
  const tenantWords = slug(tenantName).split('_');
  const objectWords = parts.flatMap((p) => slug(p).split('_'));
  const words = objectWords[0] === tenantWords[0] ? objectWords : [...tenantWords, ...objectWords];
  return words.filter((w, i) => w !== words[i - 1]).join('_');
}

/**
 * Makes names unique in the order given: the first keeps its name, later ones get `_2`,
 * `_3`, ... Callers pass objects in a stable order, so names stay the same run after run.
 */
export function uniqueNames(wanted: readonly string[]): string[] {
  const taken = new Set<string>();
  return wanted.map((name) => {
    let candidate = name;
    for (let n = 2; taken.has(candidate); n++) candidate = `${name}_${n}`;
    taken.add(candidate);
    return candidate;
  });
}
