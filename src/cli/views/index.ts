export { renderText, shouldColor, NO_CHANGES_TEXT, type TextOptions } from './text';
export { renderMarkdown, DEFAULT_MAX_LENGTH, type MarkdownOptions } from './markdown';
export { renderJson, serializePlanJson, PROVIDER_NAME, FORMAT_VERSION, type PlanJson } from './json';
