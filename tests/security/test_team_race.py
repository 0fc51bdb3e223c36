"""Two people creating a team of the same name at the same moment: one team, one clear refusal."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

from portal.models import Membership, Role, Team

ROUNDS = 10


def _create_at_once(clients, name):
    barrier = threading.Barrier(len(clients))
    answers = [None] * len(clients)

    def create(index, client):
        try:
            barrier.wait()
            answers[index] = client.post("/teams/create", {"name": name}, follow=True)
        finally:
            connection.close()

    threads = [threading.Thread(target=create, args=(i, c)) for i, c in enumerate(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_creations_give_one_team_and_one_refusal():
    users = [get_user_model().objects.create_user(name, password="disk-arrays-42") for name in ("ann", "bob")]
    clients = []
    for user in users:
        client = Client()
        client.force_login(user)
        clients.append(client)
    for round_number in range(ROUNDS):
        name = f"Array lab {round_number}"
        answers = _create_at_once(clients, name)
        assert [answer.status_code for answer in answers] == [200, 200]
        pages = [answer.content.decode().replace("&#x27;", "'") for answer in answers]
        created = [i for i, page in enumerate(pages) if f"Team {name} created; you are its admin." in page]
        refused = [i for i, page in enumerate(pages) if f"A team named '{name}' exists already" in page]
        assert len(created) == 1 and len(refused) == 1 and created != refused, pages
        team = Team.objects.get(name=name)
        members = list(Membership.objects.filter(team=team).values_list("user__username", "role"))
        assert members == [(users[created[0]].username, Role.ADMIN)]
