// Posts plan.md as ONE note on the merge request, updated by later pushes (found again by a
// hidden marker). Runs in the plan job of .gitlab-ci.yml with Node 24 (global fetch).
//
// The job token cannot write notes, so PLAN_NOTE_TOKEN is a project access token (role
// Reporter, scope `api`) kept as a masked CI/CD variable.
import { readFileSync } from 'node:fs';

const { CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID, CI_JOB_URL, PLAN_NOTE_TOKEN, PLAN_EXITCODE } = process.env;
const marker = '<!-- tenantform-plan -->';
const notes = `${CI_API_V4_URL}/projects/${CI_PROJECT_ID}/merge_requests/${CI_MERGE_REQUEST_IID}/notes`;
const headers = { 'PRIVATE-TOKEN': PLAN_NOTE_TOKEN, 'Content-Type': 'application/json' };

async function call(method, url, body) {
  const response = await fetch(url, { method, headers, body: body && JSON.stringify(body) });
  // The token never appears in the message: only the method, the path and the status.
  if (!response.ok) throw new Error(`${method} ${new URL(url).pathname} answered ${response.status}`);
  return response.json();
}

let body =
  PLAN_EXITCODE === '1'
    ? `${marker}\n### tenantform plan failed\n\nThe plan could not be made; see the [job log](${CI_JOB_URL}).`
    : `${marker}\n${readFileSync('plan.md', 'utf8')}`;
// GitLab takes notes up to 1,000,000 characters; a plan that long is read in the job log.
const limit = 900_000;
if (body.length > limit) body = `${body.slice(0, limit)}\n\n... The plan is longer than a note can be; see the [job log](${CI_JOB_URL}).`;

let previous;
for (let page = 1; !previous; page++) {
  const batch = await call('GET', `${notes}?per_page=100&page=${page}&sort=asc`);
  if (batch.length === 0) break;
  previous = batch.find((note) => note.body?.includes(marker));
}
if (previous) await call('PUT', `${notes}/${previous.id}`, { body });
else await call('POST', notes, { body });
