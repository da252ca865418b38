"""The WebSocket protocol ``sanma serve`` gives uvicorn: its websockets (Sans-I/O) protocol, reading
paused only when several messages wait for the table.

uvicorn's protocol pauses the socket's reading after every message it receives and resumes it when
the application takes that message: at a paced table each answer of a bot or a person cost the event
loop an ``epoll`` unregister and register, about a tenth of the served process's loop (issue 22,
docs/PERFORMANCE.md). Here the reading pauses once :data:`WAITING` messages wait unread, and resumes
(uvicorn's ``receive``) when the application has taken them all: a client that floods is still
held to a few messages in memory (each at most ``ws_max_size``), and everything else — the handshake,
close codes, the size limit, per-message deflate, keepalive — is uvicorn's own.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

#: Messages received and not yet taken by the application before the socket's reading pauses.
WAITING = 4


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websockets protocol whose reading pauses when :data:`WAITING` messages wait."""

    def send_receive_event_to_app(self) -> None:
        paused = self.read_paused
        # uvicorn's own pauses after each message unless it believes reading paused already
        self.read_paused = True
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = paused
        if not paused and self.queue.qsize() >= WAITING:
            self.read_paused = True
            self.transport.pause_reading()
