"""The white-paper bundle task: it takes the bundle's key and builds it from the state file the web
process wrote (:mod:`portal.publishing.bundle_jobs`)."""

from celery import shared_task

from .bundle_jobs import bundle_build

BUNDLE_TASK = "portal.exports.bundle"


# acks_late: a bundle whose worker is killed is built again when the message is delivered again. A
# failure is recorded in the state for the progress page rather than retried: asking again restarts it.
@shared_task(name=BUNDLE_TASK, acks_late=True)
def bundle_task(key: str) -> str:
    return bundle_build(key)
