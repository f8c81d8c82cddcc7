import { connect, createServer, type Server, type Socket } from 'node:net';

// A TCP forwarder on a loopback port to the test run's PostgreSQL server: stopped, the database
// is "down" for whoever connects through it (connections refused, open ones cut); started
// again on the same port, it is back.

export type Forwarder = {
  port: number;
  /** Listens on `port` again, forwarding each connection. */
  start(): Promise<void>;
  /** Stops listening and cuts every connection made through it. */
  stop(): Promise<void>;
  /**
   * Stops moving bytes on the connections open now, without closing them (no FIN, no RST), as a
   * NAT or firewall that forgot them would; new connections are forwarded as before.
   */
  stall(): void;
};

/** A loopback port nothing listens on (for now). */
export { freePort } from '../support/bot-process.ts';

export const createForwarder = (targetPort: number, port: number): Forwarder => {
  const sockets = new Set<Socket>();
  const stallers = new Set<() => void>();
  let server: Server | undefined;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  return {
    port,
    async start() {
      const listening = createServer((client) => {
        const upstream = connect(targetPort, '127.0.0.1');
        track(client);
        track(upstream);
        const stall = () => {
          client.unpipe(upstream);
          upstream.unpipe(client);
          client.pause();
          upstream.pause();
        };
        stallers.add(stall);
        client.on('close', () => {
          stallers.delete(stall);
          upstream.destroy();
        });
        upstream.on('close', () => client.destroy());
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(port, '127.0.0.1', resolve);
      });
      server = listening;
    },
    stall() {
      for (const stall of stallers) stall();
      stallers.clear();
    },
    async stop() {
      const stopping = server;
      server = undefined;
      for (const socket of sockets) socket.destroy();
      if (stopping) await new Promise<void>((resolve) => stopping.close(() => resolve()));
    },
  };
};
