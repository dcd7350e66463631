"""The live pages' and streams' one package: what changed, told once, heard everywhere.

- :mod:`live.messages`: the typed messages (:class:`Topic`, :class:`Message`: what changed,
  and in which tournament) and their few bytes on the channel;
- :mod:`live.publish`: a service publishes a message after its commit (Redis pub/sub, and
  this process's listeners);
- :mod:`live.feeds`: a push process's hub, which hears the messages, and its feeds, each read
  and rendered once per change whatever the number of viewers;
- :mod:`live.responses` and :mod:`live.frames`: what a stream's view answers, and a page's
  part as frames (whole, then patched);
- :mod:`live.server`: the push process's ASGI application (caps on open streams, slow
  viewers dropped), which deploy/push.py makes for the deployment.

The package imports no app of the project: the apps publish (tournaments, scoring,
competition), and the pages (web.push) and the API (api.stream) provide the streams' views,
loaders and renderers. Which change publishes what: docs/architecture.md, "Live pages".
"""

from .feeds import RECHECK_SECONDS, TICK_SECONDS, Feed, Hub, Loader, Subscription, Timers, hub
from .messages import Message, Topic, key
from .publish import channel, listen, publish, send_now
from .responses import FeedResponse, StreamResponse, allow_own_origins, retry_field

__all__ = [
    "RECHECK_SECONDS",
    "TICK_SECONDS",
    "Feed",
    "FeedResponse",
    "Hub",
    "Loader",
    "Message",
    "StreamResponse",
    "Subscription",
    "Timers",
    "Topic",
    "allow_own_origins",
    "channel",
    "hub",
    "key",
    "listen",
    "publish",
    "retry_field",
    "send_now",
]
