// Child of server/listener-copies.ts: receives the server's listening socket and sends it back
// `count` times. Each handle that crosses the IPC channel arrives as a new file descriptor for
// the same socket, which one process cannot make for itself in Node.js. Plain JavaScript, so it
// starts in a few tens of milliseconds without a TypeScript loader.
const count = Number(process.argv[2]);

// A server that dies (or stops) while copies are on their way would leave this process holding
// its port, accepting connections nobody serves, and a restarted server could not listen: leave
// as soon as the server is gone. Not on the channel's 'disconnect': with a handle in flight Node
// postpones it until the other side acknowledges, which a dead server never does.
const server = process.ppid;
setInterval(() => {
  if (process.ppid !== server) process.exit(0);
}, 100).unref();

process.once("message", async (_message, listener) => {
  // While it holds the socket this process could accept a visitor's connection itself: leave the
  // bytes unread and pass the connection to the server.
  listener.pauseOnConnect = true;
  listener.on("connection", (socket) => process.send("connection", socket));
  for (let i = 0; i < count; i++) {
    await new Promise((resolve, reject) => process.send("listener", listener, (error) => (error ? reject(error) : resolve())));
  }
  listener.close();
  process.disconnect();
});
