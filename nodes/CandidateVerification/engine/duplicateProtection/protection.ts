import type {
	DeduplicationHelperFunctions,
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../../shared/constants';
import type { ItemInput } from '../itemInput';
import type { OperationDefinition } from '../operation';
import type { RunSettings } from '../runSettings';
import type { RunLedger } from '../runLedger';
import { ClaimPace } from './claimPace';
import {
	DEFAULT_HISTORY_ROWS,
	DEFAULT_IN_DOUBT_WAIT_SECONDS,
	DUPLICATE_KEY,
	DUPLICATE_MODES,
	DUPLICATE_OPTIONS,
	DUPLICATE_PROTECTION,
	ANY_EXECUTION,
	EDITOR_EXECUTION_MODE,
	HISTORY_SIZE,
	ID_FOUND,
	IN_DOUBT_WAIT,
	MODE_NAMES,
	ONE_OFF_MODES,
	type DuplicateMode,
} from './fields';
import { ProtectionGate } from './gate';
import { storeCall } from './lock';
import * as say from './messages';
import { SentRecord } from './record';
import type { GateSetup } from './setup';

const ID_FOUND_LABEL = 'ID Found at the Service';
/** Rows claimed ahead of the requests in flight: sending goes on while the next claim is made. */
const CLAIM_RESERVE_SHARE = 8;
const MAX_CLAIM_RESERVE = 25;

/** A one-off mode in an execution nobody started in the editor: nothing is sent or recorded. */
export class OneOffRefused extends NodeOperationError {}

/**
 * Duplicate protection as the node's settings read and checked before anything else (its mode, its
 * options, n8n's store), with the modes that send nothing (Forget All, Release Stuck Lock).
 */
export class DuplicateProtection {
	readonly mode = this.setup.mode;

	private constructor(private readonly setup: GateSetup) {}

	/**
	 * Reads an item's Duplicate Key and, Record Rows as Sent, its ID found: the all-items check calls
	 * it with the item's other fields, before `input.settle()`, so its expressions are evaluated once.
	 */
	readonly readItem = (input: ItemInput): void => {
		const key = input.param(DUPLICATE_KEY, 'Duplicate Key', '');
		const duplicateKey = input.optionalText('Duplicate Key', key);
		const idFound =
			this.mode === DUPLICATE_MODES.recordAsSent
				? input.text(ID_FOUND_LABEL, input.param(ID_FOUND, ID_FOUND_LABEL, ''))
				: undefined;
		this.setup.itemKeys[input.itemIndex] = { duplicateKey, idFound };
	};

	/** The run's protection, or undefined when the node's Duplicate Protection is Off. */
	static open(
		context: IExecuteFunctions,
		operation: OperationDefinition,
		settings: RunSettings,
		credentials: ICredentialDataDecryptedObject,
		baseUrl: string,
	): DuplicateProtection | undefined {
		const node = context.getNode();
		const mode = context.getNodeParameter(
			DUPLICATE_PROTECTION,
			0,
			DUPLICATE_MODES.skipSent,
		) as DuplicateMode;
		if (!Object.values(DUPLICATE_MODES).includes(mode)) {
			throw new NodeOperationError(node, say.unknownMode(String(mode)));
		}
		const items = String(node.parameters[DUPLICATE_PROTECTION]).startsWith('=')
			? context.getInputData().map((_item, itemIndex) => itemIndex)
			: [];
		const differing = items.filter(
			(itemIndex) => context.getNodeParameter(DUPLICATE_PROTECTION, itemIndex, mode) !== mode,
		);
		if (differing.length > 0) {
			const { message, description } = say.modesDiffer(MODE_NAMES[mode], differing);
			throw new NodeOperationError(node, message, { itemIndex: differing[0], description });
		}
		DuplicateProtection.checkOneOff(context, mode);
		if (mode === DUPLICATE_MODES.off) return undefined;
		const store = context.helpers as DeduplicationHelperFunctions;
		if (typeof store.checkProcessedAndRecord !== 'function' || !context.getWorkflow().id) {
			const { message, description } = say.NO_STORE;
			throw new NodeOperationError(node, message, { description });
		}
		const options = context.getNodeParameter(DUPLICATE_OPTIONS, 0, {}) as IDataObject;
		const historyRows = Number(options[HISTORY_SIZE] ?? DEFAULT_HISTORY_ROWS);
		const waitSeconds = Number(options[IN_DOUBT_WAIT] ?? DEFAULT_IN_DOUBT_WAIT_SECONDS);
		if (!Number.isInteger(historyRows) || historyRows < 1) {
			throw new NodeOperationError(node, say.historySizeInvalid(String(options[HISTORY_SIZE])));
		}
		if (!Number.isFinite(waitSeconds) || waitSeconds < 0) {
			throw new NodeOperationError(node, say.waitInvalid(String(options[IN_DOUBT_WAIT])));
		}
		const waitMs = waitSeconds * 1000;
		const { concurrency } = settings;
		const reserve = Math.min(MAX_CLAIM_RESERVE, Math.ceil(concurrency / CLAIM_RESERVE_SHARE));
		const claimLimit = concurrency + reserve;
		const record = new SentRecord(context, store, historyRows, claimLimit);
		const pace = new ClaimPace({ claimLimit, concurrency, reserve });
		// A row's identity: the account that sent it (environment and n8n credential), not host or key.
		const { id } = node.credentials?.[CREDENTIAL_TYPE] ?? {};
		const { environment } = credentials;
		const { method, path } = operation;
		const identityBase = [environment, id ?? null, method, path];
		const account = { environment, credentialId: id ?? null, baseUrl, method, path };
		const setup = { context, operation, settings, mode, record, pace, identityBase, account };
		return new DuplicateProtection({ ...setup, waitMs, itemKeys: [] });
	}

	/**
	 * A one-off mode acts only where a person chose it: in an execution started in the editor, or
	 * anywhere with Act in Any Execution. Elsewhere the run stops before sending or recording anything.
	 */
	private static checkOneOff(context: IExecuteFunctions, mode: DuplicateMode): void {
		if (!ONE_OFF_MODES.includes(mode)) return;
		const executionMode = context.getMode();
		const anyExecution = context.getNodeParameter(ANY_EXECUTION, 0, false) === true;
		if (executionMode !== EDITOR_EXECUTION_MODE && !anyExecution) {
			const { message, description } = say.oneOffOutsideEditor(MODE_NAMES[mode], executionMode);
			throw new OneOffRefused(context.getNode(), message, { description });
		}
		if (String(context.getNode().parameters[DUPLICATE_PROTECTION]).startsWith('=')) {
			const message = say.oneOffFromExpression(MODE_NAMES[mode]);
			context.addExecutionHints?.({ message, type: 'warning', location: 'outputPane' });
		}
	}

	/** Forget All, Release Stuck Lock: the node's items pass through. */
	async runModeWithoutRows(items: INodeExecutionData[]) {
		const { context, record } = this.setup;
		if (this.mode === DUPLICATE_MODES.forgetAll) {
			await storeCall(context, async () => await record.forgetAll(), 'clear');
		} else if (this.mode === DUPLICATE_MODES.releaseLock) {
			const { lock } = record;
			const released = await storeCall(context, async () => await lock.releaseStuck(), 'clear');
			context.logger.info(say.lockReleasedLog(released));
		} else return undefined;
		return [items.map((item, itemIndex) => ({ ...item, pairedItem: { item: itemIndex } }))];
	}

	/** The gate of this run, reading its ledger (its checked items, whether the run stopped). */
	gateFor(ledger: RunLedger): ProtectionGate {
		return new ProtectionGate(this.setup, ledger);
	}
}
