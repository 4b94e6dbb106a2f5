import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import jsoncParser from 'jsonc-eslint-parser';
import tseslint from 'typescript-eslint';

// The same rules n8n's community package scanner applies, over what gets published.
export default [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'sandbox/**', 'examples/**', '*.js', '*.mjs'] },
	{
		files: ['**/*.ts'],
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
		},
	},
	{ files: ['package.json'], languageOptions: { parser: jsoncParser } },
	n8nCommunityNodesPlugin.configs.recommended,
];
