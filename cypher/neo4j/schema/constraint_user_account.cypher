CREATE CONSTRAINT user_account_unique IF NOT EXISTS FOR (n:User) REQUIRE n.account IS UNIQUE
