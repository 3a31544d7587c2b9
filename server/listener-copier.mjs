// Child of server/listener-copies.ts: receives the server's listening socket as a bare handle and
// sends it back `count` times. Each handle that crosses the IPC channel arrives as a new file
// descriptor for the same socket, which one process cannot make for itself in Node.js. Plain
// JavaScript, so it starts in a few tens of milliseconds without a TypeScript loader.
//
// This process never listens on the socket (a bare handle is not a server): it cannot accept a
// visitor's connection, so none can be lost with it. (Receiving a net.Server would make Node
// listen here, and a connection accepted in that moment could be reset.)
const count = Number(process.argv[2]);

// A server that dies while copies are on their way would leave this process holding its port
// (connections would queue where nobody accepts them, and a restarted server could not listen):
// leave as soon as the server is gone. Not on the channel's 'disconnect': with a handle in flight
// Node postpones it until the other side acknowledges, which a dead server never does.
const server = process.ppid;
setInterval(() => {
  if (process.ppid !== server) process.exit(0);
}, 100).unref();

let received = false;
// A lasting 'message' listener, not `once`: it keeps the IPC channel referenced, and with it this
// process, while the sends wait for the server's acknowledgements (a bare handle keeps nothing
// alive, and the process would leave after the first copy).
process.on("message", async (_message, listener) => {
  if (received || !listener) return;
  received = true;
  for (let i = 0; i < count; i++) {
    await new Promise((resolve, reject) => process.send("listener", listener, (error) => (error ? reject(error) : resolve())));
  }
  listener.close();
  process.disconnect();
});
