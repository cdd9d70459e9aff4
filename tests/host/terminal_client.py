#!/usr/bin/env python3
"""samples/terminal_client driven as a person drives it: in a tmux pane, keys sent with send-keys,
the screen read with capture-pane. It books a shipment with the stdio sample (shipment_server) and
the HTTP sample (mcp_server) at both protocol versions: each form shown field by field, a postcode
too short refused in plain words before anything is sent (the form is asked once: the server never
saw the invalid answer), a country picked by its title, a slot by its number, defaults kept with
Enter; then once in French (the French catalogue's words); and against a server whose texts carry
escape sequences (hostile_server.py), shown as `?`. Bounded: each wait at most 20 s.

Usage: terminal_client.py TERMINAL_CLIENT SHIPMENT_SERVER MCP_SERVER
"""
import os
import socket
import subprocess
import sys
import time
import uuid

client, stdio_server, http_server = sys.argv[1:4]
failures = []


# A tmux server of this run's own, kept up by a session that lives as long as the run: killing
# the last session ends a tmux server, and a session started while it ends fails.
SOCKET = f"elicit-test-{uuid.uuid4().hex[:8]}"


def tmux(*args, check=True):
    done = subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True)
    if check and done.returncode != 0:
        raise RuntimeError(f"tmux {' '.join(args[:3])}... failed: {done.stderr.strip()}")
    return done.stdout


def screen(session):
    return tmux("capture-pane", "-p", "-J", "-S", "-3000", "-t", session)


def wait_for(session, text, after=0):
    """Waits until `text` is on the screen past position `after`; returns where it ends."""
    deadline = time.time() + 20
    while time.time() < deadline:
        shown = screen(session)
        at = shown.find(text, after)
        if at >= 0:
            return at + len(text)
        time.sleep(0.1)
    raise AssertionError(f"waited 20 s for {text!r}; the screen:\n{screen(session)}")


def drive(name, command, steps, expect, lang_words):
    session = f"elicit-{name}-{uuid.uuid4().hex[:6]}"
    shell = " ".join(f"'{c}'" for c in command) + "; echo EXIT:$?; sleep 60"
    tmux("new-session", "-d", "-s", session, "-x", "200", "-y", "50", shell)
    try:
        at = 0
        for prompt, keys in steps:
            at = wait_for(session, prompt, at)
            tmux("send-keys", "-t", session, "-l", keys)
            tmux("send-keys", "-t", session, "Enter")
        wait_for(session, "EXIT:", at)
        shown = screen(session)
        for text in expect + lang_words:
            if text not in shown:
                raise AssertionError(f"not shown: {text!r}")
        if shown.count("== Where should shipment SHP-4471 be delivered?") != 1:
            raise AssertionError("the address form was asked more than once: an invalid answer reached the server")
        if "EXIT:0" not in shown:
            raise AssertionError("terminal_client did not exit 0")
        print(f"ok   {name}")
    except AssertionError as e:
        failures.append(name)
        print(f"FAIL {name}: {e}\n--- screen ---\n{screen(session)}\n--------------")
    finally:
        tmux("kill-session", "-t", session, check=False)


def drive_hostile(command):
    session = f"elicit-hostile-{uuid.uuid4().hex[:6]}"
    shell = " ".join(f"'{c}'" for c in command) + "; echo EXIT:$?; sleep 60"
    tmux("new-session", "-d", "-s", session, "-x", "200", "-y", "50", shell)
    try:
        at = wait_for(session, "1) Option")
        tmux("send-keys", "-t", session, "-l", "1")
        tmux("send-keys", "-t", session, "Enter")
        wait_for(session, "EXIT:", at)
        shown = screen(session)
        for text in ["Pick?[2J?]0;pwned? ?31m ?", "Choice?[2J", "About?[2J", "1) Option?[2J", "picked a?[2J"]:
            if text not in shown:
                raise AssertionError(f"not shown: {text!r}")
        if "?> forged" not in shown or "\n> forged" in shown:
            raise AssertionError("a title's new line reached the terminal")
        title = tmux("display-message", "-p", "-t", session, "#{pane_title}")
        if "pwned" in title:
            raise AssertionError("the server retitled the terminal")
        print("ok   hostile-server")
    except AssertionError as e:
        failures.append("hostile-server")
        print(f"FAIL hostile-server: {e}\n--- screen ---\n{screen(session)}\n--------------")
    finally:
        tmux("kill-session", "-t", session, check=False)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def booking_steps(too_short_words):
    return [
        ("Street address", "1 High St"),
        ("City", "London"),
        ("Postcode", "SW1"),
        (too_short_words, "SW1A 1AA"),      # re-asked in plain words, then answered
        ("5) Netherlands", "Ireland"),        # by title
        ("3) Thursday 8:00-12:00", "2"),      # by number
        ("Note for the driver", ""),
        ("Destination country", ""),          # its default (the address's country), kept
        ("Insured value (GBP)", "120"),
        ("Signature required", "yes"),
    ]


booked = ["Shipment SHP-4471 booked to 1 High St, London SW1A 1AA, Ireland; arriving Wednesday 8:00-12:00",
          "insured for £120; signature required."]
english_re_ask = "Postcode must be at least 5 characters long; got 3 characters."
french_re_ask = "Postcode doit comporter au moins 5 caractères ; reçu 3 caractères."
tool = ["book_shipment", '{"shipment_id":"SHP-4471"}']

tmux("new-session", "-d", "-s", "keeper", "sleep 600")
port = free_port()
server = subprocess.Popen([http_server, str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    url = f"http://127.0.0.1:{port}/mcp"
    for version in ("2025-11-25", "2026-07-28"):
        drive(f"stdio-{version}", [client, "--version", version, *tool, "--stdio", stdio_server],
              booking_steps(english_re_ask), booked, [english_re_ask, "Result:"])
        drive(f"http-{version}", [client, "--version", version, *tool, "--http", url],
              booking_steps(english_re_ask), booked, [english_re_ask, "Result:"])
    french = booking_steps(french_re_ask)
    french[-1] = ("Signature required", "oui")  # yes, in the person's words
    drive("stdio-french", [client, "--lang", "fr", *tool, "--stdio", stdio_server], french, booked,
          [french_re_ask, "Résultat :", "choix : un numéro, un nom ou une valeur", "(obligatoire)"])
    # A server that tries to take over the terminal: its escape sequences are shown as `?`.
    hostile = [sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "hostile_server.py")]
    drive_hostile([client, "hostile", "--stdio", *hostile])
finally:
    server.terminate()
    server.wait(timeout=10)
    tmux("kill-server", check=False)

sys.exit(1 if failures else 0)
