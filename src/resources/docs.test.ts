import { renderDocs } from './docs';

describe('the reference pages', () => {
  const rows = renderDocs()
    .flatMap(([page, text]) => text.split('\n').map((line) => [page, line] as const))
    .filter(([, line]) => line.startsWith('| `'));

  it('say once that changing an argument replaces the object', () => {
    const repeated = rows.filter(([, line]) => (line.match(/forces replacement|Changing it replaces/g) ?? []).length > 1);
    expect(repeated).toEqual([]);
    // Each argument that forces replacement says so in its row.
    expect(rows.filter(([, line]) => line.includes('forces replacement')).length).toBeGreaterThan(10);
  });
});
