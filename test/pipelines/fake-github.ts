/** GitHub's REST API as far as the action uses it: a pull request's comments and the repository's issues. */
import { startApi, type Api } from './helpers';

export const REPOSITORY = 'acme/platform-config';
export const GITHUB_TOKEN = 'ghs_job-token-value';

export interface Comment {
  id: number;
  body: string;
  html_url: string;
}

export interface Issue {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  pull_request?: object;
  comments: Comment[];
}

export interface FakeGitHub extends Api {
  /** Issues and pull requests by number; a pull request's comments are its issue's. */
  readonly issues: Map<number, Issue>;
}

export async function startGitHub(): Promise<FakeGitHub> {
  const issues = new Map<number, Issue>();
  let nextId = 1;
  const comments = () => [...issues.values()].flatMap((i) => i.comments);
  const page = <T>(all: T[], url: URL) => {
    const perPage = Number(url.searchParams.get('per_page') ?? 30);
    const n = Number(url.searchParams.get('page') ?? 1);
    return all.slice((n - 1) * perPage, n * perPage);
  };
  const comment = (body: string): Comment => {
    const id = nextId++;
    return { id, body, html_url: `https://github.example/${REPOSITORY}/issues#issuecomment-${id}` };
  };
  const issueJson = (i: Issue) => ({ ...i, comments: i.comments.length, html_url: `https://github.example/${REPOSITORY}/issues/${i.number}` });
  const api = await startApi(({ method, url, headers, body }) => {
    if (headers.authorization !== `Bearer ${GITHUB_TOKEN}`) return [401, { message: 'Bad credentials' }];
    const path = url.pathname.replace(`/repos/${REPOSITORY}`, '');
    let m: RegExpExecArray | null;
    if ((m = /^\/issues\/(\d+)\/comments$/.exec(path))) {
      const issue = issues.get(Number(m[1]));
      if (!issue) return [404, { message: 'Not Found' }];
      if (method === 'GET') return [200, page(issue.comments, url)];
      if (method === 'POST') {
        const created = comment(body.body);
        issue.comments.push(created);
        return [201, created];
      }
    }
    if ((m = /^\/issues\/comments\/(\d+)$/.exec(path))) {
      const found = comments().find((c) => c.id === Number(m![1]));
      if (!found) return [404, { message: 'Not Found' }];
      if (method === 'PATCH') {
        found.body = body.body;
        return [200, found];
      }
      if (method === 'DELETE') {
        for (const issue of issues.values()) issue.comments = issue.comments.filter((c) => c !== found);
        return [204, undefined];
      }
    }
    if (path === '/issues' && method === 'GET') {
      const state = url.searchParams.get('state') ?? 'open';
      return [200, page([...issues.values()].filter((i) => state === 'all' || i.state === state).map(issueJson), url)];
    }
    if (path === '/issues' && method === 'POST') {
      const issue: Issue = { number: issues.size + 1, title: body.title, body: body.body, state: 'open', comments: [] };
      issues.set(issue.number, issue);
      return [201, issueJson(issue)];
    }
    if ((m = /^\/issues\/(\d+)$/.exec(path)) && method === 'PATCH') {
      const issue = issues.get(Number(m[1]));
      if (!issue) return [404, { message: 'Not Found' }];
      Object.assign(issue, body.body === undefined ? {} : { body: body.body }, body.state === undefined ? {} : { state: body.state });
      return [200, issueJson(issue)];
    }
    return [404, { message: 'Not Found' }];
  });
  return { ...api, issues };
}

/** A pull request with comments of reviewers already on it. */
export function openPullRequest(github: FakeGitHub, reviews: number): number {
  const number = github.issues.size + 1;
  const comments = Array.from({ length: reviews }, (_, i) => ({ id: 100_000 + i, body: `review ${i + 1}`, html_url: '' }));
  github.issues.set(number, { number, title: 'Onboard Fabrikam', body: '', state: 'open', pull_request: {}, comments });
  return number;
}
