"""Refuse requests whose path or query carries a NUL character: PostgreSQL cannot hold one in text,
so it could only end in a server error further in. (Form and JSON fields refuse NUL themselves.)"""

import time

from django.http import JsonResponse


class RefuseNulCharacters:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        query = request.GET.lists()
        if "\x00" in request.path or any("\x00" in key + "".join(values) for key, values in query):
            return JsonResponse({"detail": "the address contains a NUL character"}, status=400)
        return self.get_response(request)


class ServerTimingCpu:
    """Every answer says how much CPU its process spent on it (`Server-Timing: cpu;dur=<ms>`): the
    figure the one-second rule for requests is about, which wall time on a busy machine is not."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.thread_time()
        response = self.get_response(request)
        response["Server-Timing"] = f"cpu;dur={(time.thread_time() - started) * 1000:.1f}"
        return response
