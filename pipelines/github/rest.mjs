// GitHub's REST API as far as the action uses it: issue comments (a pull request's comments are
// its issue's) and issues, with the job's token. The token never appears in a message.

/** The repository's API, from the variables every runner sets. */
export function githubApi(env = process.env) {
  const api = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/$/, '');
  const repo = `${api}/repos/${env.GITHUB_REPOSITORY}`;
  const headers = {
    Accept: 'application/vnd.github+json',
    Authorization: `Bearer ${env.GITHUB_TOKEN}`,
    'Content-Type': 'application/json',
    'X-GitHub-Api-Version': '2022-11-28',
  };
  if (!env.GITHUB_TOKEN) throw new Error('GITHUB_TOKEN is empty: pass github-token (the default is the job token).');

  async function call(method, path, body) {
    const response = await fetch(`${repo}${path}`, { method, headers, body: body && JSON.stringify(body) });
    if (!response.ok) throw new Error(`${method} ${new URL(`${repo}${path}`).pathname} answered ${response.status}`);
    return response.status === 204 ? undefined : response.json();
  }

  /** Every page of a listing, 100 at a time. */
  async function list(path) {
    const all = [];
    for (let page = 1; ; page++) {
      const batch = await call('GET', `${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`);
      all.push(...batch);
      if (batch.length < 100) return all;
    }
  }

  return {
    listComments: (issue) => list(`/issues/${issue}/comments`),
    createComment: (issue, body) => call('POST', `/issues/${issue}/comments`, { body }),
    updateComment: (id, body) => call('PATCH', `/issues/comments/${id}`, { body }),
    deleteComment: (id) => call('DELETE', `/issues/comments/${id}`),
    /** Open issues only: GitHub lists pull requests among issues, and they are left out. */
    listOpenIssues: async () => (await list('/issues?state=open')).filter((i) => !i.pull_request),
    createIssue: (title, body) => call('POST', '/issues', { title, body }),
    updateIssue: (number, fields) => call('PATCH', `/issues/${number}`, fields),
  };
}
