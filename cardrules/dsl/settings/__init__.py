"""Every setting of the variant language, each declared once.

:mod:`~cardrules.dsl.settings.declaration` defines a declaration
(:class:`~cardrules.dsl.settings.declaration.SettingSpec`); one module per
family declares its settings with the code that reads them (each one's
``parse``, given the builder of :mod:`~cardrules.dsl.settings.statement`),
writes them back and finds where they change nothing (``identity_settings``,
``table_settings``, ``pack_settings``, ``deal_settings``, ``trump_settings``,
``passing_settings``, ``bidding_settings``, ``play_settings``,
``shedding_settings``, ``scoring_settings``, ``end_settings``,
``match_settings``);
:mod:`~cardrules.dsl.settings.registry` lists them in canonical order and
derives every table of the settings from them.
"""
