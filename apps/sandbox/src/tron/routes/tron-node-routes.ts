import type { FastifyInstance, FastifyRequest } from 'fastify';
import { utils } from 'tronweb';
import type { SandboxTron } from '../sandbox-tron';
import { addressOut, hexAddressOf, hexMessage, SELECTORS } from '../tron-codec';
import { normalizeTransaction, type TronTransaction } from '../tron-transaction';
import {
  accountJson,
  accountResourceJson,
  blockJson,
  chainParametersJson,
  transactionInfoJson,
  transactionJson,
} from '../tron-wire';

type Params = Record<string, unknown>;
type Handler = (params: Params, solid: boolean) => unknown;

/** java-tron reads a call's parameters from the query string (GET) or the JSON body (POST). */
const paramsOf = (request: FastifyRequest): Params => ({
  ...(request.query as Params),
  ...(request.body && typeof request.body === 'object' ? (request.body as Params) : {}),
});

const isVisible = (params: Params) => params.visible === true || params.visible === 'true';
const isTrue = (value: unknown) => value === true || value === 'true';

const ZERO_ADDRESS = `41${'0'.repeat(40)}`;

/**
 * The full-node HTTP API (`/wallet/…`) and its solidity view (`/walletsolidity/…`, only what is
 * solidified), in java-tron's shapes, for the calls tronweb and the watcher make. Unknown
 * transactions, blocks and accounts answer `{}`, as the node does; malformed input `{ Error }`.
 */
export const tronNodeRoutes = (app: FastifyInstance, tron: SandboxTron) => {
  const { chain } = tron;
  const witness = tron.witness;

  /** Registers a call on /wallet/ (and /walletsolidity/ when `solidity`), GET and POST alike. */
  const call = (name: string, handler: Handler, solidity = true) => {
    app.route({
      method: ['GET', 'POST'],
      url: `/wallet/${name}`,
      handler: async (request) => handler(paramsOf(request), false),
    });
    if (!solidity) return;
    app.route({
      method: ['GET', 'POST'],
      url: `/walletsolidity/${name}`,
      handler: async (request) => handler(paramsOf(request), true),
    });
  };

  const numberParam = (value: unknown): number | undefined => {
    const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
    return Number.isInteger(n) && n >= 0 ? n : undefined;
  };

  const blockOut = (number: number | undefined, solid: boolean, params: Params, detail = true) => {
    const block = number === undefined ? undefined : chain.block(number, solid);
    return block ? blockJson(block, witness, { detail, visible: isVisible(params) }) : {};
  };

  call('getnowblock', (params, solid) =>
    blockOut(solid ? chain.solidNumber : chain.head.number, solid, params),
  );
  call('getblock', (params, solid) => {
    const id = params.id_or_num;
    const detail = isTrue(params.detail);
    if (id === undefined || id === '') {
      return blockOut(solid ? chain.solidNumber : chain.head.number, solid, params, detail);
    }
    if (typeof id === 'string' && /^[0-9a-fA-F]{64}$/.test(id)) {
      const block = chain.blockById(id);
      if (!block || (solid && block.number > chain.solidNumber)) return {};
      return blockJson(block, witness, { detail, visible: isVisible(params) });
    }
    return blockOut(numberParam(id), solid, params, detail);
  });
  call('getblockbynum', (params, solid) => blockOut(numberParam(params.num), solid, params));
  call('getblockbyid', (params, solid) => {
    const block = typeof params.value === 'string' ? chain.blockById(params.value) : undefined;
    if (!block || (solid && block.number > chain.solidNumber)) return {};
    return blockJson(block, witness, { visible: isVisible(params) });
  });
  call('getblockbylimitnext', (params, solid) => {
    const start = numberParam(params.startNum);
    const end = numberParam(params.endNum);
    if (start === undefined || end === undefined || end <= start || end - start > 100) {
      return { Error: 'startNum and endNum: 0 <= startNum < endNum <= startNum + 100' };
    }
    const block = [];
    for (let n = start; n < end; n += 1) {
      const found = chain.block(n, solid);
      if (found) block.push(blockJson(found, witness, { visible: isVisible(params) }));
    }
    return block.length > 0 ? { block } : {};
  });
  call('gettransactioninfobyblocknum', (params, solid) => {
    const number = numberParam(params.num);
    const block = number === undefined ? undefined : chain.block(number, solid);
    return block ? block.txs.map((executed) => transactionInfoJson(block, executed)) : [];
  });
  call('gettransactioninfobyid', (params, solid) => {
    const found = typeof params.value === 'string' ? chain.transaction(params.value, solid) : undefined;
    return found ? transactionInfoJson(found.block, found.executed) : {};
  });
  call('gettransactionbyid', (params, solid) => {
    const found = typeof params.value === 'string' ? chain.transaction(params.value, solid) : undefined;
    return found ? transactionJson(found.executed, isVisible(params)) : {};
  });
  call('getaccount', (params) => {
    const address = hexAddressOf(params.address);
    if (!address) return { Error: 'Invalid address' };
    // A contract's account says so: `type: "Contract"` (java-tron's AccountType; a normal account
    // leaves the field out at its default, Normal).
    if (chain.state.tokens.has(address)) {
      return { address: addressOut(address, isVisible(params)), type: 'Contract', create_time: 0 };
    }
    return accountJson(address, chain.state.accounts.get(address), isVisible(params));
  });
  // developers.tron.network, HTTP API "getaccountresource": an unknown account answers {}.
  call('getaccountresource', (params) => {
    const address = hexAddressOf(params.address);
    if (!address) return { Error: 'Invalid address' };
    return accountResourceJson(chain.state.accounts.get(address), chain.head.timestamp);
  });
  call('getchainparameters', () => chainParametersJson(), false);
  // GetContract (java-tron's GetContractServlet): the SmartContract at `value`, addresses in base58
  // with `visible`, and `{}` for any address that is not a contract.
  call(
    'getcontract',
    (params) => {
      const address = hexAddressOf(params.value);
      const token = address ? chain.state.tokens.get(address) : undefined;
      if (!token) return {};
      const visible = isVisible(params);
      return {
        origin_address: addressOut(hexAddressOf(tron.faucet.address) ?? tron.faucet.address, visible),
        contract_address: addressOut(token.spec.address, visible),
        abi: { entrys: TRC20_ABI },
        bytecode: '',
        consume_user_resource_percent: 100,
        name: token.spec.name.replace(/\s/g, ''),
        origin_energy_limit: 10_000_000,
      };
    },
    false,
  );
  call(
    'getnodeinfo',
    () => ({
      block: `Num:${chain.head.number},ID:${chain.head.blockID}`,
      solidityBlock: `Num:${chain.solidNumber},ID:${chain.block(chain.solidNumber)!.blockID}`,
      configNodeInfo: { codeVersion: '4.7.4', p2pVersion: 'sandbox' },
    }),
    false,
  );

  call('triggersmartcontract', (params) => trigger(tron, params, false), false);
  call('triggerconstantcontract', (params) => trigger(tron, params, true));
  // HTTP API "estimateenergy" (a node with vm.estimateEnergy): the same parameters as a constant
  // call; a call that would revert answers result.code OTHER_ERROR and no energy_required.
  call('estimateenergy', (params) => {
    const answer = trigger(tron, params, true) as {
      result: { result?: boolean; code?: string; message?: string };
      energy_used?: number;
    };
    if (answer.result.result !== true) {
      const code = answer.result.code === 'CONTRACT_EXE_ERROR' ? 'OTHER_ERROR' : answer.result.code;
      return { result: { code, message: answer.result.message } };
    }
    return { result: { result: true }, energy_required: answer.energy_used ?? 0 };
  });
  call('broadcasttransaction', (params) => chain.broadcast(params as unknown as TronTransaction), false);
};

/** The call data of a trigger: `function_selector` + `parameter` (hashed like tronweb), or `data`. */
const callData = (params: Params): string | undefined => {
  if (typeof params.function_selector === 'string' && params.function_selector !== '') {
    const selector = utils.ethersUtils.keccak256(
      utils.ethersUtils.toUtf8Bytes(params.function_selector.replace(/\s/g, '')),
    );
    return selector.slice(2, 10) + (typeof params.parameter === 'string' ? params.parameter : '');
  }
  return typeof params.data === 'string' ? params.data.replace(/^0x/, '') : undefined;
};

const trigger = (tron: SandboxTron, params: Params, constant: boolean) => {
  const { chain } = tron;
  const contract = hexAddressOf(params.contract_address);
  const owner = params.owner_address === undefined ? ZERO_ADDRESS : hexAddressOf(params.owner_address);
  const data = callData(params);
  const refuse = (text: string) => ({
    result: { code: 'CONTRACT_VALIDATE_ERROR', message: hexMessage(text) },
  });
  if (!contract || !owner || data === undefined)
    return refuse('Invalid contract_address, owner_address or call data');
  const token = chain.state.tokens.get(contract);
  if (!token) return refuse('No contract or not a smart contract');
  const callValue = Number(params.call_value ?? 0);
  const value: Record<string, unknown> = { data, owner_address: owner, contract_address: contract };
  if (callValue) value.call_value = callValue;
  const feeLimit = Number(params.fee_limit ?? 0);
  const transaction = normalizeTransaction({
    txID: '',
    raw_data_hex: '',
    raw_data: {
      contract: [
        {
          parameter: { value, type_url: 'type.googleapis.com/protocol.TriggerSmartContract' },
          type: 'TriggerSmartContract',
        },
      ],
      ...chain.refBlock(),
      ...(feeLimit > 0 && !constant ? { fee_limit: feeLimit } : {}),
    },
  });
  if (!constant) return { result: { result: true }, transaction };
  const outcome = token.call(owner, data, true);
  const energy = chain.state.energyOfCall(token, data);
  if (!outcome.ok) {
    return {
      result: { code: 'CONTRACT_EXE_ERROR', message: hexMessage(outcome.reason) },
      energy_used: energy,
    };
  }
  return {
    result: { result: true },
    // A transfer's energy depends on its recipient (tron-resources.ts); a read costs nothing here.
    energy_used: data.toLowerCase().startsWith(SELECTORS.transfer) ? energy : 0,
    constant_result: [outcome.result],
    transaction: { ret: [{}], ...transaction },
  };
};

const TRC20_ABI = [
  {
    name: 'transfer',
    type: 'Function',
    stateMutability: 'Nonpayable',
    inputs: [
      { name: '_to', type: 'address' },
      { name: '_value', type: 'uint256' },
    ],
    outputs: [{ type: 'bool' }],
  },
  {
    name: 'balanceOf',
    type: 'Function',
    constant: true,
    stateMutability: 'View',
    inputs: [{ name: 'who', type: 'address' }],
    outputs: [{ type: 'uint256' }],
  },
  {
    name: 'decimals',
    type: 'Function',
    constant: true,
    stateMutability: 'View',
    outputs: [{ type: 'uint8' }],
  },
  {
    name: 'symbol',
    type: 'Function',
    constant: true,
    stateMutability: 'View',
    outputs: [{ type: 'string' }],
  },
  { name: 'name', type: 'Function', constant: true, stateMutability: 'View', outputs: [{ type: 'string' }] },
  {
    name: 'totalSupply',
    type: 'Function',
    constant: true,
    stateMutability: 'View',
    outputs: [{ type: 'uint256' }],
  },
  {
    name: 'Transfer',
    type: 'Event',
    inputs: [
      { indexed: true, name: 'from', type: 'address' },
      { indexed: true, name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
  },
];
