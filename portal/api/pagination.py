"""Pages of 50 by number for lists; points by cursor (a run can have thousands, and they keep coming)."""

from rest_framework import pagination


class PageNumberPagination(pagination.PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500


class PointCursorPagination(pagination.CursorPagination):
    page_size = 500
    page_size_query_param = "page_size"
    max_page_size = 5000
    # Points are inserted in load order, so id order is each run's load order.
    ordering = ("id",)
