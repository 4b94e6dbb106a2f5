import type { INodeProperties } from 'n8n-workflow';

import {
	CHECK_OPTIONS_V2,
	checkLabel,
	checkLabelV2,
	FORM_VERIFICATION_NAMES,
} from '../../shared/checks';

/** Operations whose subtitle names the chosen check instead of the resource. */
const CHECK_OPERATIONS: Record<string, string> = {
	'verification:submit': 'Submit',
	'transaction:getCheckStatus': 'Check Status',
};
/** What the canvas calls a resource when its display name is long. */
const SHORT_RESOURCE_NAMES: Record<string, string> = { profile: 'Candidate' };

/**
 * The canvas subtitle as an expression, e.g. "Create: Form", "Submit: Employment": the operation
 * and resource as the panel names them, built from the node's own properties so they never drift.
 */
export function subtitleExpression(properties: INodeProperties[]): string {
	const resources = properties.find((property) => property.name === 'resource')?.options ?? [];
	const labels: Record<string, string> = {};
	for (const resource of resources) {
		if (!('value' in resource)) continue;
		const selector = properties.find(
			(property) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes(resource.value),
		);
		for (const operation of selector?.options ?? []) {
			if (!('value' in operation)) continue;
			const resourceLabel = SHORT_RESOURCE_NAMES[String(resource.value)] ?? resource.name;
			labels[`${resource.value}:${operation.value}`] = `${operation.name}: ${resourceLabel}`;
		}
	}
	const checks: Record<string, string> = {};
	for (const { value } of FORM_VERIFICATION_NAMES) checks[value] = checkLabel(value);
	// Flat objects only: a "}}" inside the expression would end it.
	const key = '$parameter["resource"] + ":" + $parameter["operation"]';
	const prefixes = JSON.stringify(CHECK_OPERATIONS);
	// Node version 2 names its checks apart (two police checks, the digital addresses' names).
	const checksV2: Record<string, string> = {};
	for (const { value } of CHECK_OPTIONS_V2) checksV2[value] = checkLabelV2(value);
	const byVersion = `($nodeVersion >= 2 ? ${JSON.stringify(checksV2)} : ${JSON.stringify(checks)})`;
	const check = `(${byVersion}[$parameter["verificationName"]] || $parameter["verificationName"])`;
	return `={{ ${prefixes}[${key}] ? ${prefixes}[${key}] + ": " + ${check} : ${JSON.stringify(labels)}[${key}] || ${key} }}`;
}
