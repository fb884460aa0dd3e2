"""Log line formats: one JSON object per line in production (for a log shipper), readable
`key=value` lines in development. Fields a caller passes in `extra` (the request log's route and
status, a job transition's states) become fields of the line in both."""

import json
import logging
from datetime import datetime, timezone

# the attributes every LogRecord has: anything else on a record came from `extra`
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime", "taskName"}


def extra_fields(record: logging.LogRecord) -> dict:
    return {key: value for key, value in vars(record).items() if key not in _STANDARD}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **extra_fields(record),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    def __init__(self):
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        fields = extra_fields(record)
        if fields:
            first, newline, rest = text.partition("\n")  # a traceback stays below the line
            text = first + " " + " ".join(f"{key}={value}" for key, value in fields.items()) + newline + rest
        return text
