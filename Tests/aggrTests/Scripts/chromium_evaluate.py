"""Loads a page in headless Chromium at a given window size and prints what a JavaScript
expression evaluates to there (a JSON string), through the DevTools protocol on a pipe.

usage: chromium_evaluate.py CHROMIUM URL WIDTH HEIGHT EXPRESSION [STEPS]

STEPS, a JSON list, is done first, as a person would: {"type": SELECTOR, "text": TEXT}
focuses the element and types the text through the browser's input (Input.insertText);
{"click": SELECTOR} presses the mouse on the element's middle and waits for the page that
loads. The expression is then evaluated on the page the steps left.

The page's own Content-Security-Policy stays in force for the page; the expression runs
through DevTools, as a person inspecting the page would run it. Used by the web UI tests to
read element boxes at desktop and phone widths.
"""
import json
import os
import subprocess
import sys
import tempfile


def main():
    chromium, url, width, height, expression = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    steps = json.loads(sys.argv[6]) if len(sys.argv) > 6 else []
    profile = tempfile.mkdtemp(prefix="aggr-chromium-")
    to_browser_read, to_browser_write = os.pipe()
    from_browser_read, from_browser_write = os.pipe()

    def pipe_on_fds_3_and_4():
        os.dup2(to_browser_read, 3)
        os.dup2(from_browser_write, 4)

    browser = subprocess.Popen(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"],
        preexec_fn=pipe_on_fds_3_and_4, pass_fds=(3, 4), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(to_browser_read)
    os.close(from_browser_write)
    outgoing = os.fdopen(to_browser_write, "wb", buffering=0)
    incoming = os.fdopen(from_browser_read, "rb", buffering=0)
    pending = b""
    last_id = 0

    def send(method, params=None, session=None):
        nonlocal last_id
        last_id += 1
        message = {"id": last_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        outgoing.write(json.dumps(message).encode() + b"\0")
        return last_id

    def receive(answer_to=None, event=None):
        nonlocal pending
        while True:
            while b"\0" in pending:
                raw, pending = pending.split(b"\0", 1)
                message = json.loads(raw)
                if answer_to is not None and message.get("id") == answer_to:
                    if "error" in message:
                        raise SystemExit("DevTools refused: %s" % message["error"])
                    return message
                if event is not None and message.get("method") == event:
                    return message
            chunk = incoming.read(65536)
            if not chunk:
                raise SystemExit("chromium closed the DevTools pipe")
            pending += chunk

    try:
        target = receive(send("Target.createTarget", {"url": "about:blank"}))["result"]["targetId"]
        session = receive(send("Target.attachToTarget", {"targetId": target, "flatten": True}))["result"]["sessionId"]
        receive(send("Page.enable", session=session))
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}
        receive(send("Emulation.setDeviceMetricsOverride", metrics, session=session))
        send("Page.navigate", {"url": url}, session=session)
        receive(event="Page.loadEventFired")

        def run(script):
            answer = receive(send("Runtime.evaluate", {"expression": script, "returnByValue": True}, session=session))["result"]
            if "exceptionDetails" in answer:
                raise SystemExit("a step threw: %s" % json.dumps(answer["exceptionDetails"]))
            return answer["result"].get("value")

        for step in steps:
            if "type" in step:
                run("document.querySelector(%s).focus()" % json.dumps(step["type"]))
                receive(send("Input.insertText", {"text": step["text"]}, session=session))
            elif "click" in step:
                box = json.loads(run("(() => { const e = document.querySelector(%s); e.scrollIntoView({block: 'center'});"
                                     " const r = e.getBoundingClientRect();"
                                     " return JSON.stringify({x: r.left + r.width / 2, y: r.top + r.height / 2}); })()"
                                     % json.dumps(step["click"])))
                run("window.aggrBeforeClick = true")
                for kind in ("mousePressed", "mouseReleased"):
                    receive(send("Input.dispatchMouseEvent", {"type": kind, "x": box["x"], "y": box["y"], "button": "left",
                                                              "clickCount": 1}, session=session))
                # Wait for the page the click loads (a load event of the old page may be queued).
                while True:
                    receive(event="Page.loadEventFired")
                    if run("window.aggrBeforeClick === true") is not True:
                        break
        evaluation = {"expression": expression, "returnByValue": True, "awaitPromise": True}
        result = receive(send("Runtime.evaluate", evaluation, session=session))["result"]
        if "exceptionDetails" in result:
            raise SystemExit("the expression threw: %s" % json.dumps(result["exceptionDetails"]))
        print(result["result"].get("value"))
    finally:
        browser.kill()
        browser.wait(timeout=10)


main()
