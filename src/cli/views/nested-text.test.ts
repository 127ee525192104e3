import { attr } from '../../resources/attributes';
import { nestedAttributeLines, type Mark } from './nested-text';

const member = {
  name: attr.string({ mode: 'required', description: 'The name.' }),
  size: attr.number({ mode: 'optional', description: 'A size.' }),
};
const keyed = attr.mapNested(member, { mode: 'optional', description: 'A map.' });
const unordered = attr.setNested(member, { mode: 'optional', description: 'A set.' });
const plain: Mark = (marker) => marker;
const render = (a: typeof keyed | typeof unordered, before: unknown, after: unknown) =>
  nestedAttributeLines('things', a, before, after, '      ', 6, plain).join('\n');

describe('a nested attribute in a plan', () => {
  it('a map: each key added, removed or changed, sorted, the unchanged ones counted', () => {
    const text = render(
      keyed,
      { a: { name: 'a', size: 1 }, b: { name: 'b', size: 2 }, c: { name: 'c', size: null } },
      { a: { name: 'a', size: 1 }, b: { name: 'b', size: 3 }, d: { name: 'd', size: null } },
    );
    expect(text).toBe(
      [
        '      ~ things = {',
        '          ~ "b" = {',
        '                name = "b"',
        '              ~ size = 2 -> 3',
        '            }',
        '          - "c" = {',
        '              - name = "c" -> null',
        '            }',
        '          + "d" = {',
        '              + name = "d"',
        '            }',
        '            # (1 unchanged element hidden)',
        '        }',
      ].join('\n'),
    );
  });

  it('a set: an element that changes is one removed and another added', () => {
    const text = render(unordered, [{ name: 'x', size: 1 }], [{ name: 'x', size: 2 }]);
    expect(text).toContain('          - {\n              - name = "x" -> null\n              - size = 1 -> null\n            },');
    expect(text).toContain('          + {\n              + name = "x"\n              + size = 2\n            },');
  });

  it('an attribute removed whole ends with -> null', () => {
    expect(
      render(unordered, [{ name: 'x', size: null }], null)
        .split('\n')
        .at(-1),
    ).toBe('        ] -> null');
  });
});
