# usage: slow.py slowloris|idle N PORT HOLD_SECONDS [LINGER_SECONDS]
# Opens N connections that each send a partial request head and then one header byte every
# few seconds (slowloris), or nothing at all (idle). Reports how many the server still holds.
import socket, sys, time
mode, n, port, hold = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
conns = []
for i in range(n):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        if mode == "slowloris": s.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        conns.append(s)
    except OSError as e:
        pass
opened = len(conns)
def alive():
    """Connections the server neither answered nor closed (an answer such as a 503 or 408
    counts as handled, not as held)."""
    n = 0
    for s in conns:
        try:
            s.setblocking(False)
            s.recv(4096)  # b"" (closed) or data (answered): not held
        except BlockingIOError:
            n += 1
        except OSError:
            pass
    return n
start = time.time()
while time.time() - start < hold:
    time.sleep(2)
    if mode == "slowloris":
        for s in conns:
            try: s.send(b"X-a: b\r\n")
            except OSError: pass
print(f"{mode}: opened {opened}, still open after {hold:.0f} s: {alive()}")
sys.stdout.flush()
if len(sys.argv) > 5: time.sleep(float(sys.argv[5]))
for s in conns: s.close()
