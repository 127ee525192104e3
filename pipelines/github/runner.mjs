// What a step tells the runner: outputs, the job summary, annotations and values to mask, through
// the files and workflow commands GitHub Actions reads.
import { appendFileSync, readFileSync } from 'node:fs';

/** Sets a step output (`steps.<id>.outputs.<name>`). */
export function setOutput(name, value) {
  if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, `${name}=${value}\n`);
}

/** Appends markdown to the job summary. */
export function addSummary(markdown) {
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${markdown.trimEnd()}\n`);
}

/** An error annotation on the run, with a title. */
export function annotateError(title, message) {
  console.log(`::error title=${title}::${message.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}`);
}

/**
 * Asks the runner to mask values in the log from here on: a secret that reached the action
 * other than from the secret store (a variable, a computed value) is masked as well.
 */
export function mask(...values) {
  for (const value of values) if (value) console.log(`::add-mask::${value}`);
}

/** The event that started the workflow (the pull request's, for a plan). */
export function event() {
  return process.env.GITHUB_EVENT_PATH ? JSON.parse(readFileSync(process.env.GITHUB_EVENT_PATH, 'utf8')) : {};
}

/** The page of this run, for links from comments and issues. */
export function runUrl(env = process.env) {
  return `${env.GITHUB_SERVER_URL || 'https://github.com'}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`;
}
