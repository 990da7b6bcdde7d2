# Romansh date and number formats (Django ships none). Numeric dates, as in the rest of
# Switzerland, so no English month name ever shows on a Romansh page.
DATE_FORMAT = "d.m.Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "d.m.Y H:i"
SHORT_DATE_FORMAT = "d.m.Y"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
FIRST_DAY_OF_WEEK = 1  # Monday
DATE_INPUT_FORMATS = ["%d.%m.%Y", "%d.%m.%y", "%Y-%m-%d"]
DATETIME_INPUT_FORMATS = ["%d.%m.%Y %H:%M:%S", "%d.%m.%Y %H:%M", "%Y-%m-%d %H:%M:%S"]
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = "\u2019"
NUMBER_GROUPING = 3
