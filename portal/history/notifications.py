"""Telling a team that one of its alerts was found or changed state."""


def alert_changed(alert_id: int, state: str) -> None:
    """Alert ``alert_id`` became ``state`` (new, updated, confirmed or withdrawn): its version's summary is
    sent to the team's webhook."""
    from portal.history.services import summary_deliver
    from portal.models import Alert

    summary_id = Alert.objects.filter(id=alert_id).values_list("summary_id", flat=True).first()
    if summary_id is not None:
        summary_deliver(summary_id=summary_id)
