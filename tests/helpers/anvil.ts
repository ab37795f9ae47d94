// A real local EVM node for the USDT payment tests: anvil (the @foundry-rs/anvil package's binary) on
// a free loopback port, with the tests' ERC-20 (tests/fixtures/usdt/TestUsdt.json, kept compiled)
// deployed from an account anvil funds. Blocks are mined on each transaction (anvil's
// automine) or on demand; every wait is bounded and `stop` kills the node.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hash,
  type Hex,
  http,
  type PrivateKeyAccount,
  type PublicClient,
  type TestClient,
  defineChain,
  getAddress,
  parseEther,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { PROJECT_ROOT } from '../../server/project-root';

const ANVIL_BIN = join(PROJECT_ROOT, 'node_modules', '@foundry-rs', 'anvil-linux-amd64', 'bin', 'anvil');
const START_TIMEOUT_MS = 30_000;
/** Any one wait on the node: generous, since the machine running the tests may be loaded. */
const WAIT_MS = 30_000;
const CHAIN_ID = 31337;

const artifact = JSON.parse(readFileSync(join(PROJECT_ROOT, 'tests', 'fixtures', 'usdt', 'TestUsdt.json'), 'utf8')) as {
  abi: Abi;
  bytecode: Hex;
};
export const testUsdtAbi = artifact.abi;

/** 1 USDT in the token's smallest unit (6 decimals). */
export const USDT = 1_000_000n;

/** The server's USDT settings (decisions §8) for a token deployed on this node, paying `treasury`. */
export function usdtEnv(
  node: Pick<AnvilNode, 'rpcUrl' | 'chainId'>,
  token: Address,
  treasury: Address,
  confirmations: number,
): Record<string, string> {
  return {
    USDT_RPC_URL: node.rpcUrl,
    USDT_CHAIN_ID: String(node.chainId),
    USDT_CONTRACT: token,
    USDT_TREASURY: treasury,
    USDT_CONFIRMATIONS: String(confirmations),
  };
}

export interface AnvilNode {
  rpcUrl: string;
  chainId: number;
  client: PublicClient;
  test: TestClient;
  /** Deploys a fresh TestUsdt and returns its address. */
  deployToken(): Promise<Address>;
  /** A new account with ETH for gas and, when asked, tokens of `token`. */
  fundedAccount(token?: Address, amount?: bigint): Promise<PrivateKeyAccount>;
  mint(token: Address, to: Address, amount: bigint): Promise<void>;
  /** Sends `token.transfer(to, amount)` from `from` and returns the hash (mined at once under automine). */
  transfer(token: Address, from: PrivateKeyAccount, to: Address, amount: bigint): Promise<Hash>;
  /** A transaction that emits the transfer and then reverts; mined with a fixed gas limit (estimation would refuse it). */
  transferThenRevert(token: Address, from: PrivateKeyAccount, to: Address, amount: bigint): Promise<Hash>;
  balanceOf(token: Address, owner: Address): Promise<bigint>;
  mine(blocks: number): Promise<void>;
  /** Off: transactions wait in the mempool until `mine`. */
  setAutomine(on: boolean): Promise<void>;
  stop(): Promise<void>;
}

function listen(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`anvil did not start within ${START_TIMEOUT_MS} ms:\n${seen}`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /Listening on (127\.0\.0\.1:\d+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        // Keep draining its output so a full pipe never blocks the node.
        child.stdout!.resume();
        resolve(`http://${m[1]}`);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => {
      seen += c.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited (${code}) before listening:\n${seen}`));
    });
  });
}

export async function startAnvil(): Promise<AnvilNode> {
  // Port 0: the node takes a free port itself and prints it, so parallel test files never collide.
  const child = spawn(ANVIL_BIN, ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(CHAIN_ID)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let rpcUrl: string;
  try {
    rpcUrl = await listen(child);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  const chain = defineChain({
    id: CHAIN_ID,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl, { timeout: WAIT_MS, retryCount: 0 });
  const client = createPublicClient({ chain, transport, pollingInterval: 50 });
  const test = createTestClient({ chain, mode: 'anvil', transport });
  const wallet = (account: PrivateKeyAccount) => createWalletClient({ account, chain, transport });
  // A fresh key given ETH by anvil itself: deploys the tokens and mints.
  const deployer = privateKeyToAccount(generatePrivateKey());
  try {
    await test.setBalance({ address: deployer.address, value: parseEther('100') });
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }

  const mined = async (hash: Hash) => {
    await client.waitForTransactionReceipt({ hash, timeout: WAIT_MS, pollingInterval: 50 });
    return hash;
  };
  let automine = true;
  // Under automine a sent transaction is waited for: anvil answers the hash before its block is
  // always readable (a submit right after read 0 confirmations, now and then, on a loaded machine).
  const minedIfAutomine = (hash: Hash) => (automine ? mined(hash) : Promise.resolve(hash));

  const node: AnvilNode = {
    rpcUrl,
    chainId: CHAIN_ID,
    client: client as PublicClient,
    test: test as unknown as TestClient,
    async deployToken() {
      const hash = await wallet(deployer).deployContract({ abi: artifact.abi, bytecode: artifact.bytecode });
      const receipt = await client.waitForTransactionReceipt({ hash, timeout: WAIT_MS, pollingInterval: 50 });
      if (!receipt.contractAddress) throw new Error('TestUsdt was not deployed');
      return getAddress(receipt.contractAddress);
    },
    async fundedAccount(token, amount = 100n * USDT) {
      const account = privateKeyToAccount(generatePrivateKey());
      await test.setBalance({ address: account.address, value: parseEther('10') });
      if (token)
        await mined(
          await wallet(deployer).writeContract({
            address: token,
            abi: artifact.abi,
            functionName: 'mint',
            args: [account.address, amount],
          }),
        );
      return account;
    },
    async mint(token, to, amount) {
      await mined(
        await wallet(deployer).writeContract({
          address: token,
          abi: artifact.abi,
          functionName: 'mint',
          args: [to, amount],
        }),
      );
    },
    async transfer(token, from, to, amount) {
      return minedIfAutomine(
        await wallet(from).writeContract({
          address: token,
          abi: artifact.abi,
          functionName: 'transfer',
          args: [to, amount],
        }),
      );
    },
    async transferThenRevert(token, from, to, amount) {
      return minedIfAutomine(
        await wallet(from).writeContract({
          address: token,
          abi: artifact.abi,
          functionName: 'transferThenRevert',
          args: [to, amount],
          gas: 200_000n,
        }),
      );
    },
    async balanceOf(token, owner) {
      return (await client.readContract({
        address: token,
        abi: artifact.abi,
        functionName: 'balanceOf',
        args: [owner],
      })) as bigint;
    },
    async mine(blocks) {
      await test.mine({ blocks });
    },
    async setAutomine(on) {
      await test.setAutomine(on);
      automine = on;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
  return node;
}
