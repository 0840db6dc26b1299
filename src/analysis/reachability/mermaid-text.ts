/** Small pieces of Mermaid flowchart syntax shared by the picture and the diff's pull-request comment. */

/** Mermaid IDs allow letters, digits and `_`; everything else becomes `_`, and clashes get a numeric suffix. */
export class MermaidIds {
  private readonly ids = new Map<string, string>();
  private readonly used = new Set<string>();

  public id(key: string): string {
    const known = this.ids.get(key);
    if (known) return known;
    const base = `n_${key.replace(/[^A-Za-z0-9_]/g, '_')}`;
    let id = base;
    for (let i = 2; this.used.has(id); i++) id = `${base}_${i}`;
    this.used.add(id);
    this.ids.set(key, id);
    return id;
  }
}

/**
 * A label safe inside `"..."`: quotes and the characters Mermaid reads as markup become entity codes (`#quot;`),
 * and line breaks become `<br/>`.
 */
export function mermaidLabel(text: string): string {
  const escaped = text
    .replace(/#/g, '#35;')
    .replace(/"/g, '#quot;')
    .replace(/</g, '#lt;')
    .replace(/>/g, '#gt;')
    .replace(/\|/g, '#124;')
    .replace(/\r?\n/g, '<br/>');
  return `"${escaped}"`;
}
