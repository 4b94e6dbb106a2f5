import type { IExecuteFunctions, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { CandidateVerification } from '../../nodes/CandidateVerification/CandidateVerification.node';
import type { lockTiming } from '../../nodes/CandidateVerification/engine/duplicateProtection/lock';
import type * as transport from '../../nodes/shared/transport';
import { addNodeType } from '../harness/environment';
import type { runActionNode } from '../harness/run-node';

type NodeModule = { CandidateVerification: typeof CandidateVerification };

export interface OtherProcess {
	runActionNode: typeof runActionNode;
	/** Its copy of the transport, for the simulated service to decide its requests' outcomes. */
	transport: typeof transport;
	/** Its copy of the node. */
	node: CandidateVerification;
	/** Its copy of the lock's timings (the stuck time a history sets). */
	lockTiming: typeof lockTiming;
}

/**
 * A second n8n process as test/harness/other-process.ts loads it (the node's code loaded again, its
 * memory apart, the same store), with its own copies of the transport and the node.
 */
export function otherProcessWithTransport(): OtherProcess {
	let loaded: OtherProcess | undefined;
	jest.isolateModules(() => {
		/* eslint-disable @typescript-eslint/no-require-imports -- a fresh copy of the modules, as another process has */
		loaded = {
			runActionNode: (require('../harness/run-node') as { runActionNode: typeof runActionNode })
				.runActionNode,
			transport: require('../../nodes/shared/transport') as typeof transport,
			node: new (
				require('../../nodes/CandidateVerification/CandidateVerification.node') as NodeModule
			).CandidateVerification(),
			lockTiming: (
				require('../../nodes/CandidateVerification/engine/duplicateProtection/lock') as {
					lockTiming: typeof lockTiming;
				}
			).lockTiming,
		};
		/* eslint-enable @typescript-eslint/no-require-imports */
	});
	return loaded!;
}

/**
 * Registers (once per version) a node type whose Retry On Fail tries run in the two processes by
 * turns, as retry-on-fail.test.ts does: each try of an execution in the other process than the try
 * before it, the first in the process `firstIn` names for that execution ID. The execution, its
 * data and the node's context stay n8n's own. Returns the type's name.
 */
export function triesInTwoProcesses(
	other: OtherProcess,
	typeVersion: number,
	firstIn: (executionId: string) => 0 | 1,
): string {
	const name = `test.candidateVerificationHistoryTries${typeVersion}`;
	const processes = [new CandidateVerification(), other.node].map(
		(node) => NodeHelpers.getVersionedNodeType(node, typeVersion) as INodeType,
	);
	const tries = new Map<string, number>();
	addNodeType(name, {
		description: processes[0].description,
		methods: processes[0].methods,
		async execute(this: IExecuteFunctions) {
			const executionId = this.getExecutionId();
			const done = tries.get(executionId) ?? 0;
			tries.set(executionId, done + 1);
			return await processes[(firstIn(executionId) + done) % 2].execute!.call(this);
		},
	});
	return name;
}
