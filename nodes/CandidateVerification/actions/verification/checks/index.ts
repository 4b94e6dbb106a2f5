import type { INodeProperties } from 'n8n-workflow';

import {
	type NodeVersion,
	SUBMITTABLE_CHECKS,
	SUBMITTABLE_CHECKS_V2,
	submissionName,
} from '../../../../shared/checks';
import { credit } from './credit';
import { criminal } from './criminal';
import { degree } from './degree';
import { digitalAddress } from './digitalAddress';
import { education } from './education';
import { employment } from './employment';
import { policeAddress } from './policeAddress';
import { policeCertificate } from './policeCertificate';
import { fromVersion } from '../../../helpers/versions';
import { checkField, showFor, type SharedField, type TypedCheck, type TypedField } from './shared';

/** The checks with typed fields, in the panel's order; every other check takes Data (JSON). */
export const TYPED_CHECKS: readonly TypedCheck[] = [
	employment,
	credit,
	criminal,
	policeAddress,
	policeCertificate,
	education,
	degree,
	digitalAddress,
];

export const NODE_VERSIONS: readonly NodeVersion[] = [1, 2];

/** The check names Verification → Submit takes on a node version (its list's and expressions'). */
export function submittableChecks(nodeVersion: NodeVersion): readonly string[] {
	return nodeVersion >= 2 ? SUBMITTABLE_CHECKS_V2 : SUBMITTABLE_CHECKS;
}

/** The name Submit sends for the check chosen: version 1 sends the certificate for the police check. */
export function sentOn(check: string, nodeVersion: NodeVersion): string {
	return nodeVersion >= 2 ? check : submissionName(check);
}

/** The typed check Submit builds a check's data with on a node version; none: Data (JSON). */
export function typedCheckFor(check: string, nodeVersion: NodeVersion): TypedCheck | undefined {
	const sent = sentOn(check, nodeVersion);
	return TYPED_CHECKS.find((typed) => nodeVersion >= typed.since && typed.checks.includes(sent));
}

/** The check names chosen on a node version that a typed check builds. */
function namesOn(typed: TypedCheck, nodeVersion: NodeVersion): string[] {
	return submittableChecks(nodeVersion).filter(
		(check) => typedCheckFor(check, nodeVersion) === typed,
	);
}

/** Version 1 keeps its frozen meanings; a field of a later version shows on every version after. */
function shows(field: TypedField, version: NodeVersion): boolean {
	return field.version === 1 ? version === 1 : version >= (field.version ?? 1);
}

/**
 * The `@version` condition of a field shown on these consecutive versions: none when every version
 * shows it; from the first on when they reach the current version, so that a later version keeps
 * the field; else exactly these (a meaning frozen on an older version).
 */
function versionCondition(versions: readonly NodeVersion[]) {
	if (versions.length === NODE_VERSIONS.length) return undefined;
	const current = NODE_VERSIONS[NODE_VERSIONS.length - 1];
	return versions.includes(current) ? fromVersion(versions[0]) : [...versions];
}

/**
 * A field's properties for the checks given: one per run of consecutive versions that show it for
 * the same checks (one without a version condition when every version does).
 */
function place(field: TypedField, users: readonly TypedCheck[]): INodeProperties[] {
	const runs: Array<{ names: string[]; versions: NodeVersion[] }> = [];
	NODE_VERSIONS.forEach((version, index) => {
		if (!shows(field, version) || !users.some((u) => version >= u.since)) return;
		const names = users.flatMap((typed) => namesOn(typed, version));
		const last = runs[runs.length - 1];
		const follows = last && last.versions[last.versions.length - 1] === NODE_VERSIONS[index - 1];
		if (follows && String(last.names) === String(names)) last.versions.push(version);
		else runs.push({ names, versions: [version] });
	});
	return runs.flatMap(({ names, versions }) => {
		const shownOn = versionCondition(versions);
		const properties = field.eachCheck
			? names.map((check) => ({
					...field.property,
					...field.eachCheck!(check),
					displayOptions: showFor([check], shownOn),
				}))
			: [{ ...field.property, displayOptions: showFor(names, shownOn) }];
		return properties.map((property) =>
			field.mapped ? checkField(property as INodeProperties) : (property as INodeProperties),
		);
	});
}

const isShared = (entry: TypedField | SharedField): entry is SharedField => 'shared' in entry;

/** Every typed check's fields, in the list's order; a shared field shows for each check using it. */
export function typedCheckFields(): INodeProperties[] {
	return TYPED_CHECKS.flatMap((typed) =>
		typed.fields.flatMap((entry) => {
			if (!isShared(entry)) return place(entry, [typed]);
			const users = TYPED_CHECKS.filter(
				(user) => user.fields.includes(entry) || user.uses?.includes(entry),
			);
			return place(entry.shared, users);
		}),
	);
}
