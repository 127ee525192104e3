// Lint rules run by `npm test` (through `npm run lint`): typescript-eslint's recommended set,
// plus the habits the code keeps.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '**/cdktf.out/', 'coverage/', '.gen/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      'no-restricted-syntax': [
        'error',
        {
          // A double cast silences the compiler instead of stating a type it can check.
          selector: 'TSAsExpression > TSAsExpression.expression[typeAnnotation.type="TSUnknownKeyword"]',
          message: 'No `as unknown as`: give the value a type the compiler can check.',
        },
      ],
      // A variable a handler reads before it is assigned (a signal during start-up) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Control characters are matched on purpose: text from the platform is escaped before it is shown.
      'no-control-regex': 'off',
    },
  },
  {
    // Type-aware rules over the TypeScript of the project (tsconfig.json): a promise nobody awaits
    // loses its failure, a promise where a callback's result is ignored runs unobserved, and a cast
    // to the type a value already has hides nothing but the next reader's time.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
    },
  },
  {
    // Tests walk parsed JSON documents (synthesized stacks, state files) freely.
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', fetch: 'readonly', URL: 'readonly', console: 'readonly' } },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
