import type { Plan, PlannedChange } from '../../plans/model';
import { mixedPlan } from './fixtures';
import { renderMarkdown } from './markdown';
import { renderText } from './text';

/** The mixed plan with its unchanged agent settings imported, and its setting update imported too. */
const ID = 'tenant/91bd10dc-703c-44b6-b7a0-2aa91d1446fb';
const importing: Plan = {
  ...mixedPlan,
  changes: mixedPlan.changes.map((c: PlannedChange) =>
    c.type === 'tenantform_agent_update_settings' || c.action === 'update' ? { ...c, importing: { id: c.action === 'update' ? 'setting-id' : ID } } : c,
  ),
};

describe('objects adopted by import blocks', () => {
  it('are shown as Terraform shows them, and counted in the summary', () => {
    const text = renderText(importing, { color: false });
    expect(text).toContain('  # tenantform_agent_update_settings.master will be imported\n    resource "tenantform_agent_update_settings" "master" {');
    expect(text).toMatch(/will be updated in-place\n {2}# \(imported from "setting-id"\)\n {2}~ resource/);
    expect(text.trimEnd().split('\n').pop()).toBe('Plan: 2 to import, 2 to add, 1 to change, 2 to destroy.');
  });

  it('have a row of their own in the pull-request comment, with the id they are imported from', () => {
    const markdown = renderMarkdown(importing);
    expect(markdown.split('\n')[0]).toBe('**Plan:** 2 to import, 2 to add, 1 to change, 2 to destroy.');
    expect(markdown).toContain('| import | `tenantform_agent_update_settings.master` (id `tenant/91bd10dc-703c-44b6-b7a0-2aa91d1446fb`) |');
    expect(markdown).toContain('will be updated in-place (imported from <code>setting-id</code>)');
    expect(markdown).not.toContain('| move |');
  });

  it('an estate adopted at once is one row per type in the comment, not one per object', () => {
    const agent = mixedPlan.changes.find((c) => c.type === 'tenantform_agent_update_settings')!;
    const many = Array.from({ length: 60 }, (_, i) => ({
      ...agent,
      address: `${agent.address}_${i}`,
      name: `${agent.name}_${i}`,
      importing: { id: `tenant/${i}` },
    }));
    const markdown = renderMarkdown({ ...mixedPlan, changes: many });
    expect(markdown.split('\n').filter((l) => l.startsWith('| import |'))).toEqual(['| import | 60 × `tenantform_agent_update_settings` |']);
    expect(markdown.split('\n')[0]).toBe('**Plan:** 60 to import, 0 to add, 0 to change, 0 to destroy.');
  });
});
