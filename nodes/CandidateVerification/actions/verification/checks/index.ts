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

/**
 * A field's properties for the checks given: one without a version when every version shows it for
 * the same checks, else one per version.
 */
function place(field: TypedField, users: readonly TypedCheck[]): INodeProperties[] {
	const versions = NODE_VERSIONS.filter(
		(version) => (field.version ?? version) === version && users.some((u) => version >= u.since),
	);
	const namesByVersion = versions.map((version) =>
		users.flatMap((typed) => namesOn(typed, version)),
	);
	const sameEverywhere =
		versions.length === NODE_VERSIONS.length &&
		namesByVersion.every((names) => String(names) === String(namesByVersion[0]));
	const groups: Array<{ names: string[]; versions?: number[] }> = sameEverywhere
		? [{ names: namesByVersion[0] }]
		: versions.map((version, index) => ({ names: namesByVersion[index], versions: [version] }));
	return groups.flatMap(({ names, versions: shownOn }) => {
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
