/**
 * One scaled-out deployment of Cabinet as docs/deploy.md describes it: instances started one after
 * the other on one root, one data folder and one database (an SQLite file, or a PostgreSQL
 * database), each trusting the balancer's forwarding headers, and one nginx balancer per
 * configuration measured (the first instance alone, then the first two), all on 127.0.0.1.
 */
import path from 'node:path';
import { startBalancer, type RunningBalancer } from './balancer.ts';
import type { Engine } from './scale-config.ts';
import { login, startCabinet, type CabinetOptions, type RunningServer } from './servers.ts';

export interface Deployment {
  engine: Engine;
  /** The SQLite file or PostgreSQL URL every instance opens. */
  database: string;
  /** The data folder the instances share. */
  dataDir: string;
  instances: RunningServer[];
  /** Balancer by the number of instances behind it (the first n instances). */
  balancers: Map<number, RunningBalancer>;
  /** One sign-in, through the balancer of every instance. */
  token: string;
  /** How every instance was started (all alike but for the port). */
  instanceOptions: CabinetOptions;
}

export interface DeploymentOptions {
  engine: Engine;
  root: string;
  password: string;
  /** The data folder the instances share (the caller removes it once they have stopped). */
  dataDir: string;
  /** PostgreSQL URL of an empty database; the SQLite rows use <data>/cabinet.db. */
  postgresUrl?: string;
  /** Instance counts to put a balancer in front of, e.g. [1, 2]. */
  configurations: readonly number[];
  balancerWorkers: number;
  /** Cabinet's launcher, when not this checkout's server/bin/cabinet.js. */
  bin?: string;
  /** Called with every process as soon as it runs, so the runner can stop it whatever happens. */
  started(server: RunningServer): void;
  log(line: string): void;
}

export async function startDeployment(options: DeploymentOptions): Promise<Deployment> {
  const { engine, dataDir } = options;
  const database = options.postgresUrl ?? path.join(dataDir, 'cabinet.db');
  const instanceOptions: CabinetOptions = {
    root: options.root,
    password: options.password,
    dataDir,
    ...(options.bin && { bin: options.bin }),
    env: {
      CABINET_DATABASE: database,
      CABINET_TRUSTED_PROXIES: '127.0.0.1',
      // Login counters, locks and upload leases in the database, so the instances share them on
      // SQLite too (the default, auto, keeps them per process on SQLite; docs/runtime.md).
      CABINET_SHARED_STATE: 'database',
    },
  };
  const instances: RunningServer[] = [];
  // One at a time: the first start runs the migrations and creates the administrator.
  for (let i = 0; i < Math.max(...options.configurations); i++) {
    const booting = Date.now();
    const instance = await startCabinet(instanceOptions);
    options.started(instance);
    instances.push(instance);
    options.log(
      `${engine} instance ${i + 1}: pid ${instance.pid} at ${instance.url} (ready in ${Date.now() - booting} ms)`,
    );
  }
  const balancers = new Map<number, RunningBalancer>();
  for (const count of options.configurations) {
    const balancer = await startBalancer({
      upstreams: instances.slice(0, count).map((instance) => new URL(instance.url).host),
      workers: options.balancerWorkers,
    });
    options.started(balancer);
    balancers.set(count, balancer);
    options.log(
      `${engine} balancer over ${count} instance(s): pid ${balancer.pid} at ${balancer.url}`,
    );
  }
  const widest = balancers.get(Math.max(...options.configurations)) as RunningBalancer;
  const token = await login(widest.url, 'admin', options.password);
  return { engine, database, dataDir, instances, balancers, token, instanceOptions };
}
